/**
 * Validating dbm parameters against a transaction's schema. Every message names the transaction
 * and the parameter, and says what would be accepted.
 */
import { AppError } from '../../shared/errors.js'
import type { ParamSpec, ParamValues, Transaction } from './registry.js'
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
const LIMITED_TEXTS = new Set<string>(['title', 'sdesc', 'ldesc', 'description', 'label'].filter((f) => f in FIELD_LIMITS))

function normalize(t: Transaction, name: string, spec: ParamSpec, value: unknown): unknown {
  const bad = (expected: string): AppError =>
    new AppError('INVALID_PARAMETER', `Transaction "${t.name}": the parameter "${name}" must be ${expected} (got ${describe(value, name)}).`, { parameter: name })
  switch (spec.type) {
    case 'string': {
      if (typeof value === 'number' || typeof value === 'boolean') value = String(value)
      if (typeof value !== 'string') throw bad('a string')
      if (spec.values && !spec.values.includes(value)) throw bad(`one of ${spec.values.map((v) => `"${v}"`).join(', ')}`)
      if (LIMITED_TEXTS.has(name)) checkFieldLength(name as LimitedField, value, `transaction "${t.name}": the parameter "${name}"`, 'INVALID_PARAMETER', { parameter: name })
      return value
    }
    case 'path':
    case 'name': {
      if (typeof value !== 'string') throw bad(spec.type === 'path' ? 'a dotted path string such as "pub.demo"' : 'a name string')
      checkFieldLength(spec.type, value, `transaction "${t.name}": the parameter "${name}"`, 'INVALID_PARAMETER', { parameter: name })
      return value.trim().toLowerCase()
    }
    case 'names': {
      const items = typeof value === 'string' ? value.split(/[\s,]+/) : Array.isArray(value) ? value : null
      if (items === null || !items.every((i) => typeof i === 'string')) throw bad('a list of user or group names (a JSON array of strings, or a space-separated string)')
      return [...new Set((items as string[]).map((i) => i.trim().toLowerCase()).filter((i) => i !== ''))]
    }
    case 'boolean': {
      if (typeof value === 'boolean') return value
      const text = String(value).trim().toLowerCase()
      if ((typeof value === 'number' || typeof value === 'string') && TRUE.has(text)) return true
      if ((typeof value === 'number' || typeof value === 'string') && FALSE.has(text)) return false
      throw bad('true or false (or 1 or 0)')
    }
    case 'integer': {
      const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN
      if (!Number.isSafeInteger(n)) throw bad('a whole number')
      return n
    }
    case 'object':
      if (typeof value !== 'object' || value === null || Array.isArray(value)) throw bad('a JSON object')
      return value
    case 'array':
      if (!Array.isArray(value)) throw bad('a JSON array')
      return value
    case 'any':
      return value
  }
}

/** Checks and normalises `raw` against the schema of `t`; unknown and missing parameters are errors. */
export function validateParams(t: Transaction, raw: ParamValues): ParamValues {
  const known = Object.keys(t.params)
  const out: Record<string, unknown> = Object.create(null)
  for (const [name, value] of Object.entries(raw)) {
    const spec = t.params[name]
    if (!Object.prototype.hasOwnProperty.call(t.params, name) || spec === undefined) {
      const takes = known.length > 0 ? `it takes ${known.map((k) => `"${k}"`).join(', ')}` : 'it takes no parameters'
      throw new AppError('INVALID_PARAMETER', `Transaction "${t.name}" has no parameter "${name}"; ${takes}.`, { parameter: name })
    }
    if (value === null || value === undefined) continue
    out[name] = normalize(t, name, spec, value)
  }
  checkGiven(t, out)
  return out
}

/** A normalised value that counts as given: not left out, and not '' unless '' means something. */
function given(spec: ParamSpec | undefined, value: unknown): boolean {
  return value !== undefined && (value !== '' || spec?.emptyMeansRoot === true)
}

/** The one check of what a transaction needs: its required parameters, then its oneOf groups. */
function checkGiven(t: Transaction, out: ParamValues): void {
  for (const [name, spec] of Object.entries(t.params)) {
    if (spec.required && !given(spec, out[name])) {
      throw new AppError('MISSING_PARAMETER', `Transaction "${t.name}" needs the parameter "${name}": ${spec.doc}`, { parameter: name })
    }
  }
  for (const group of t.oneOf ?? []) {
    if (!group.some((name) => given(t.params[name], out[name]))) {
      const names = group.map((n) => `"${n}"`).join(' or ')
      throw new AppError('MISSING_PARAMETER', `Transaction "${t.name}" needs ${names}: ${group.map((n) => `${n}: ${t.params[n]?.doc ?? ''}`).join(' ')}`, { parameter: group[0] })
    }
  }
}
