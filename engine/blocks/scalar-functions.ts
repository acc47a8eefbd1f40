/**
 * The functions available inside block-level `{…}` expressions. One row per function, so a
 * missing function is one missing row. `if` is lazy: a branch not taken is never evaluated.
 */
import type { Expr } from '../ast.js'
import { ScalarError } from './errors.js'
import { bool, formatNumber, isTrue, num, str, toText } from './scalar-value.js'
import type { Atom, Scalar } from './scalar-value.js'
import { spliceScalar, strextractScalar, strpickScalar, widthScalar } from './scalar-text.js'

type Evaluate = (e: Expr) => Scalar

interface BlockFunction {
  /** Allowed argument counts: exact, or a check with the wording used in the message. */
  readonly arity: number | { readonly ok: (n: number) => boolean; readonly says: string }
  readonly run: (args: readonly Expr[], evaluate: Evaluate) => Scalar
}

/** A function of already-evaluated arguments. */
const eager = (arity: number, fn: (args: readonly Scalar[]) => Scalar): BlockFunction => ({
  arity,
  run: (args, evaluate) => fn(args.map(evaluate)),
})

const textTest = (name: string, test: (x: string, y: string) => boolean, ci: boolean): BlockFunction =>
  eager(2, ([x, y]) => {
    const fold = (s: string): string => (ci ? s.toLowerCase() : s)
    const subject = fold(toText(x, name))
    const candidates = y.kind === 'list' ? y.items : [y]
    return bool(candidates.some((c) => test(subject, fold(toText(c, name)))))
  })

const textFunctions = (name: string, test: (x: string, y: string) => boolean): Record<string, BlockFunction> => ({
  [name]: textTest(name, test, false),
  [`${name}_ci`]: textTest(`${name}_ci`, test, true),
})

/** Quotes one value as a macro-language text literal, doubling inner quotes. */
function quoteValue(a: Atom): Atom {
  return str(`'${(a.kind === 'str' ? a.value : formatNumber(a.value)).replace(/'/g, "''")}'`)
}

const FUNCTIONS: Readonly<Record<string, BlockFunction>> = {
  qv: eager(1, ([x]) => (x.kind === 'list' ? { kind: 'list', items: x.items.map(quoteValue) } : quoteValue(x))),
  str_to_lst: eager(2, ([x, d]) => {
    const delim = toText(d, 'str_to_lst')
    if (delim === '') throw new ScalarError('str_to_lst needs a non-empty delimiter')
    const items = toText(x, 'str_to_lst')
      .split(delim)
      .map((s) => s.trim())
      .filter((s) => s !== '')
    return { kind: 'list', items: items.map(str) }
  }),
  ...textFunctions('beginswith', (x, y) => x.startsWith(y)),
  ...textFunctions('endswith', (x, y) => x.endsWith(y)),
  ...textFunctions('contains', (x, y) => x.includes(y)),
  strupcase: eager(1, ([x]) => str(toText(x, 'strupcase').toUpperCase())),
  strdowncase: eager(1, ([x]) => str(toText(x, 'strdowncase').toLowerCase())),
  strlen: eager(1, ([x]) => num(toText(x, 'strlen').length)),
  len: eager(1, ([x]) => num(x.kind === 'list' ? x.items.length : 1)),
  width: eager(1, ([x]) => widthScalar(x)),
  splice: eager(2, ([l, d]) => spliceScalar(l, d)),
  strpick: eager(3, ([x, d, n]) => strpickScalar(x, d, n)),
  strextract: {
    arity: { ok: (n) => n === 2 || n === 3, says: '2 or 3 arguments (strextract(X;S;L))' },
    run: (args, evaluate) => strextractScalar(evaluate(args[0]), evaluate(args[1]), args[2] === undefined ? undefined : evaluate(args[2])),
  },
  if: {
    arity: { ok: (n) => n >= 3 && n % 2 === 1, says: 'an odd number of arguments, at least 3 (if(c1;v1;c2;v2;…;otherwise))' },
    run: (args, evaluate) => {
      for (let i = 0; i + 1 < args.length; i += 2) if (isTrue(evaluate(args[i]), 'if')) return evaluate(args[i + 1])
      return evaluate(args[args.length - 1])
    },
  },
}

/** Names of the block functions, for messages. */
export const BLOCK_FUNCTION_NAMES: readonly string[] = Object.keys(FUNCTIONS).sort()

/**
 * Calls block function `name`.
 * @throws ScalarError for an unknown function, a wrong argument count or an omitted argument
 */
export function callBlockFunction(name: string, args: readonly (Expr | null)[], evaluate: Evaluate): Scalar {
  const fn = Object.hasOwn(FUNCTIONS, name) ? FUNCTIONS[name] : undefined
  if (!fn) throw new ScalarError(`${name}() is not available in a block expression; available: ${BLOCK_FUNCTION_NAMES.join(', ')}`)
  const ok = typeof fn.arity === 'number' ? args.length === fn.arity : fn.arity.ok(args.length)
  if (!ok) {
    const says = typeof fn.arity === 'number' ? `${fn.arity} argument${fn.arity === 1 ? '' : 's'}` : fn.arity.says
    throw new ScalarError(`${name}() takes ${says}, not ${args.length}`)
  }
  const present = args.map((a, i) => {
    if (a === null) throw new ScalarError(`argument ${i + 1} of ${name}() is missing`)
    return a
  })
  return fn.run(present, evaluate)
}
