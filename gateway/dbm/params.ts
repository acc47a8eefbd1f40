/**
 * Validating dbm parameters against a transaction's schema (schema.ts): the one place that
 * checks what the parameters are, so handlers get them typed and never check again. Every
 * message names the transaction and the parameter, and says what would be accepted.
 */
import { AppError } from '../../shared/errors.js'
import type { ParamValues } from './registry.js'
import type { ParamSchema, ParamSpec, ParamsOf, ParamType, ParamTypes } from './schema.js'
import { checkFieldLength, FIELD_LIMITS, type LimitedField } from '../../shared/name-limits.js'

const TRUE = new Set(['1', 'true', 'yes', 'on'])
const FALSE = new Set(['0', 'false', 'no', 'off', ''])

/** Parameters whose values a message must never repeat: passwords reach screens and logs. */
const SECRET_PARAMETER = /password/i

function describe(value: unknown, name = ''): string {
  if (SECRET_PARAMETER.test(name)) return Array.isArray(value) ? 'an array' : value === null ? 'null' : `a value of type ${typeof value}`
  const text = JSON.stringify(value) ?? String(value)
  return text.length > 60 ? `${text.slice(0, 57)}...` : text
}

/** Descriptive texts bounded by shared/name-limits.ts (other strings, such as CSV data, are bounded by the body size). */
const LIMITED_TEXTS: ReadonlySet<string> = new Set(['title', 'sdesc', 'ldesc', 'description', 'label'].filter((f) => f in FIELD_LIMITS))
const isLimitedText = (name: string): name is LimitedField => LIMITED_TEXTS.has(name)

/** What validation needs of a transaction: its name for messages, and its schema. */
interface Checked<P extends ParamSchema> {
  readonly name: string
  readonly params: P
  readonly oneOf?: readonly (readonly string[])[]
}

/** One parameter being checked: a refusal that names it says what was `expected`. */
interface Given {
  readonly transaction: string
  readonly name: string
  readonly spec: ParamSpec
  readonly value: unknown
  readonly bad: (expected: string) => AppError
}

/**
 * One normaliser per parameter type, each returning exactly the type ParamTypes gives it: the
 * compiler holds the run-time check and the handler's type to the same declaration.
 */
const NORMALIZE: { readonly [T in ParamType]: (g: Given) => ParamTypes[T] } = {
  string({ transaction, name, spec, value, bad }) {
    const text = typeof value === 'number' || typeof value === 'boolean' ? String(value) : value
    if (typeof text !== 'string') throw bad('a string')
    if (spec.values && !spec.values.includes(text)) throw bad(`one of ${spec.values.map((v) => `"${v}"`).join(', ')}`)
    if (isLimitedText(name)) checkFieldLength(name, text, `transaction "${transaction}": the parameter "${name}"`, 'INVALID_PARAMETER', { parameter: name })
    return text
  },
  path: (g) => identifier(g, 'path', 'a dotted path string such as "pub.demo"'),
  name: (g) => identifier(g, 'name', 'a name string'),
  names({ value, bad }) {
    const items: unknown[] | null = typeof value === 'string' ? value.split(/[\s,]+/) : Array.isArray(value) ? value : null
    if (items === null || !items.every((i): i is string => typeof i === 'string')) {
      throw bad('a list of user or group names (a JSON array of strings, or a space-separated string)')
    }
    return [...new Set(items.map((i) => i.trim().toLowerCase()).filter((i) => i !== ''))]
  },
  boolean({ value, bad }) {
    if (typeof value === 'boolean') return value
    const text = String(value).trim().toLowerCase()
    if ((typeof value === 'number' || typeof value === 'string') && TRUE.has(text)) return true
    if ((typeof value === 'number' || typeof value === 'string') && FALSE.has(text)) return false
    throw bad('true or false (or 1 or 0)')
  },
  integer({ value, bad }) {
    const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN
    if (!Number.isSafeInteger(n)) throw bad('a whole number')
    return n
  },
  object({ value, bad }) {
    if (!isPlainObject(value)) throw bad('a JSON object')
    return value
  },
  array({ value, bad }) {
    if (!Array.isArray(value)) throw bad('a JSON array')
    return value
  },
  any: ({ value }) => value,
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** A path or a name: a string within its length limit, trimmed and lower-cased. */
function identifier({ transaction, name, value, bad }: Given, type: 'path' | 'name', expected: string): string {
  if (typeof value !== 'string') throw bad(expected)
  checkFieldLength(type, value, `transaction "${transaction}": the parameter "${name}"`, 'INVALID_PARAMETER', { parameter: name })
  return value.trim().toLowerCase()
}

function normalize(transaction: string, name: string, spec: ParamSpec, value: unknown): unknown {
  const bad = (expected: string): AppError =>
    new AppError('INVALID_PARAMETER', `Transaction "${transaction}": the parameter "${name}" must be ${expected} (got ${describe(value, name)}).`, {
      parameter: name,
    })
  return NORMALIZE[spec.type]({ transaction, name, spec, value, bad })
}

/**
 * Checks and normalises `raw` against the schema of `t`; unknown and missing parameters are
 * errors. What it returns is what ParamsOf promises: each given parameter normalised to its
 * type (NORMALIZE), each required one present (checkGiven), nothing else.
 */
export function validateParams<P extends ParamSchema>(t: Checked<P>, raw: ParamValues): ParamsOf<P> {
  const known = Object.keys(t.params)
  const out: Record<string, unknown> = Object.create(null)
  for (const [name, value] of Object.entries(raw)) {
    const spec = t.params[name]
    if (!Object.prototype.hasOwnProperty.call(t.params, name) || spec === undefined) {
      const takes = known.length > 0 ? `it takes ${known.map((k) => `"${k}"`).join(', ')}` : 'it takes no parameters'
      throw new AppError('INVALID_PARAMETER', `Transaction "${t.name}" has no parameter "${name}"; ${takes}.`, { parameter: name })
    }
    if (value === null || value === undefined) continue
    out[name] = normalize(t.name, name, spec, value)
  }
  checkGiven(t, out)
  // The one assertion: the checks above are what make `out` a ParamsOf<P>.
  return out as ParamsOf<P>
}

/** A normalised value that counts as given: not left out, and not '' unless '' means something. */
function given(spec: ParamSpec | undefined, value: unknown): boolean {
  return value !== undefined && (value !== '' || spec?.emptyMeansRoot === true)
}

/** The one check of what a transaction needs: its required parameters, then its oneOf groups. */
function checkGiven(t: Checked<ParamSchema>, out: ParamValues): void {
  for (const [name, spec] of Object.entries(t.params)) {
    if (spec.required && !given(spec, out[name])) {
      throw new AppError('MISSING_PARAMETER', `Transaction "${t.name}" needs the parameter "${name}": ${spec.doc}`, { parameter: name })
    }
  }
  for (const group of t.oneOf ?? []) {
    if (!group.some((name) => given(t.params[name], out[name]))) {
      const names = group.map((n) => `"${n}"`).join(' or ')
      throw new AppError('MISSING_PARAMETER', `Transaction "${t.name}" needs ${names}: ${group.map((n) => `${n}: ${t.params[n]?.doc ?? ''}`).join(' ')}`, {
        parameter: group[0],
      })
    }
  }
}
