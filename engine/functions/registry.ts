/**
 * The function registry: one table, one row per function and operator, assembled from the
 * family files. A missing function is one missing row.
 */
import { ARITHMETIC } from './arith.js'
import { COMPARISONS } from './compare.js'
import { CONDITIONAL } from './conditional.js'
import { DATES } from './date.js'
import { GROUP_FUNCTIONS } from './group/defs.js'
import { LOGIC } from './logic.js'
import { MATH } from './math.js'
import { ROLLUP } from './rollup.js'
import { ROW } from './row.js'
import { SQL_KERNELS } from './sql/kernels.js'
import { SQL_TEXT_KERNELS } from './sql/text.js'
import { SQL_WINDOW_KERNELS } from './sql/window.js'
import { TEXT } from './text.js'
import { TEXT_BUILDING } from './text-build.js'
import { CONVERSIONS } from './convert.js'
import type { FunctionDef } from './types.js'

/** SQL_KERNELS, SQL_TEXT_KERNELS and SQL_WINDOW_KERNELS hold the `$` functions that only compiled SQL can name (functions/sql*.ts). */
const FAMILIES: readonly (readonly FunctionDef[])[] = [
  ARITHMETIC,
  COMPARISONS,
  LOGIC,
  ROW,
  MATH,
  CONDITIONAL,
  TEXT,
  TEXT_BUILDING,
  CONVERSIONS,
  DATES,
  ROLLUP,
  GROUP_FUNCTIONS,
  SQL_KERNELS,
  SQL_WINDOW_KERNELS,
  SQL_TEXT_KERNELS,
]

function assemble(): Readonly<Record<string, FunctionDef>> {
  // A null prototype keeps names like "constructor" from resolving to Object's members.
  const table: Record<string, FunctionDef> = Object.create(null) as Record<string, FunctionDef>
  for (const family of FAMILIES) {
    for (const def of family) {
      if (table[def.name]) throw new Error(`function ${def.name} is defined twice`)
      table[def.name] = def
    }
  }
  return Object.freeze(table)
}

/**
 * The families whose every function computes row i of its result from row i of its arguments
 * alone, so that an expression of them can be evaluated over any subset or reordering of the
 * rows (interpret/select-through-index.ts). Opt-in: a family added later is not, until named
 * here. ROW (`i_`) reads row positions and GROUP_FUNCTIONS read other rows of their group.
 */
const ROW_WISE_FAMILIES: readonly (readonly FunctionDef[])[] = [
  ARITHMETIC,
  COMPARISONS,
  LOGIC,
  MATH,
  CONDITIONAL,
  TEXT,
  TEXT_BUILDING,
  CONVERSIONS,
  DATES,
  ROLLUP,
  SQL_KERNELS,
  SQL_TEXT_KERNELS,
]
const ROW_WISE: ReadonlySet<string> = new Set(ROW_WISE_FAMILIES.flatMap((family) => family.map((def) => def.name)))

/** Every function and operator by name (operators by their symbol; `neg` and `not` for - and ~). */
export const FUNCTIONS: Readonly<Record<string, FunctionDef>> = assemble()

/** The function named `name` (case-insensitive), or undefined. */
export function lookupFunction(name: string): FunctionDef | undefined {
  return FUNCTIONS[name.toLowerCase()]
}

/** Whether `name` (a function or operator) is row-wise: row i depends only on row i of its arguments. */
export const isRowWise = (name: string): boolean => ROW_WISE.has(name.toLowerCase())
