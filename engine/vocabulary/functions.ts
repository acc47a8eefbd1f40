/**
 * The names a query editor offers to complete: the macro language's functions, read from the
 * function registry (so a function added there is offered without another edit), and the SQL
 * functions `api/sql` answers, on the columnar engine or on sql.js.
 */
import { FUNCTIONS, lookupFunction } from '../functions/index.js'

/** A name a query can call: lower-case letters, digits and `_`; not an operator or a `$` kernel. */
const CALLABLE = /^[a-z][a-z0-9_]*$/

/**
 * Names the checker rewrites into registry calls (check/call-rewrites.ts): `splice` and
 * `r_mapstring` by name, and the `t_` form of each `g_` function that takes a group argument.
 */
function rewrittenNames(): string[] {
  const tForms = Object.keys(FUNCTIONS)
    .filter((name) => name.startsWith('g_'))
    .filter((name) => {
      const g = lookupFunction(name)
      return g !== undefined && g.repeatFrom === undefined && g.args.some((a) => a.kind === 'group') && lookupFunction(`t_${name.slice(2)}`) === undefined
    })
    .map((name) => `t_${name.slice(2)}`)
  return ['splice', 'r_mapstring', ...tForms]
}

/** The macro language's function names, sorted; `neg` is how the registry names unary minus. */
export function macroFunctionNames(): string[] {
  const names = Object.keys(FUNCTIONS).filter((name) => CALLABLE.test(name) && name !== 'neg')
  return [...new Set([...names, ...rewrittenNames()])].sort()
}

/**
 * SQLite's functions that a read-only analytic query calls, as sql.js builds them (the compiled
 * subset of docs/sql.md is among them; the rest run on sql.js). Left out: the functions of
 * extensions, full-text search, JSON, and those about the connection rather than the data
 * (changes, last_insert_rowid, sqlite_version …), which a query over tables has no use for.
 */
export const SQL_FUNCTION_NAMES: readonly string[] = [
  // Aggregates
  'avg',
  'count',
  'group_concat',
  'max',
  'min',
  'string_agg',
  'sum',
  'total',
  // Window functions
  'cume_dist',
  'dense_rank',
  'first_value',
  'lag',
  'last_value',
  'lead',
  'nth_value',
  'ntile',
  'percent_rank',
  'rank',
  'row_number',
  // Scalar
  'abs',
  'char',
  'coalesce',
  'concat',
  'concat_ws',
  'format',
  'glob',
  'hex',
  'iif',
  'ifnull',
  'instr',
  'length',
  'like',
  'lower',
  'ltrim',
  'nullif',
  'octet_length',
  'printf',
  'quote',
  'random',
  'replace',
  'round',
  'rtrim',
  'sign',
  'substr',
  'substring',
  'trim',
  'typeof',
  'unicode',
  'upper',
  // Dates and times
  'date',
  'datetime',
  'julianday',
  'strftime',
  'time',
  'timediff',
  'unixepoch',
  // Mathematics
  'acos',
  'asin',
  'atan',
  'atan2',
  'ceil',
  'ceiling',
  'cos',
  'degrees',
  'exp',
  'floor',
  'ln',
  'log',
  'log10',
  'log2',
  'mod',
  'pi',
  'pow',
  'power',
  'radians',
  'sin',
  'sqrt',
  'tan',
  'trunc',
]
