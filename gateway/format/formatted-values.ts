/**
 * JSON with formatted values (`values_=formatted`): each cell as the text the `:text` and
 * `:html` views show for it (display/index.ts), so a client (the workbench among them) can show
 * what a person would see without reimplementing the display rules. JSON stays raw by default.
 *
 * The result is turned into text columns before rendering, so every JSON shape (column-major,
 * rows, keyed, `!head`) gets the same strings from the one renderer it already uses. N/A is the
 * empty string there, as it is in the views.
 */
import { AppError } from '../../shared/errors.js'
import type { ResultColumn, ResultSet } from '../../shared/protocol.js'
import { columnLength } from '../../shared/result-text.js'
import type { Format } from './types.js'
import { displayCellReader } from './values.js'

/** How JSON answers give values: as stored (numbers, null for N/A) or as shown. */
export type ValuesMode = 'raw' | 'formatted'

/** The parameter that selects the mode; a system parameter, hence the trailing underscore. */
export const VALUES_PARAM = 'values_'

const MODES: readonly ValuesMode[] = ['raw', 'formatted']

/** The mode a request asks for; absent or empty is raw, anything unknown is refused. */
export function valuesMode(raw: unknown): ValuesMode {
  const text = raw === undefined || raw === null ? '' : String(raw).trim().toLowerCase()
  if (text === '') return 'raw'
  if ((MODES as readonly string[]).includes(text)) return text as ValuesMode
  throw new AppError('INVALID_PARAMETER', `The parameter "${VALUES_PARAM}" must be "raw" or "formatted" (got "${String(raw)}").`, {
    parameter: VALUES_PARAM,
  })
}

function formattedColumn(result: ResultSet, c: number): ResultColumn {
  const column = result.columns[c]
  // Per row, not per dictionary entry: a page of 100 rows must not format a million-entry
  // dictionary (the reader formats each distinct string once as rows meet it).
  const read = displayCellReader(result.cols[c], column)
  const data = new Array<string>(columnLength(column))
  for (let r = 0; r < data.length; r++) data[r] = read(r)
  return { kind: 'text', data }
}

/**
 * The result a JSON answer in `mode` renders: the result itself when raw (and for the text and
 * HTML views, which always show formatted values), else its values as shown.
 */
export function resultForValues<T extends ResultSet>(result: T, format: Format, mode: ValuesMode): T {
  if (mode === 'raw' || format === 'text' || format === 'html') return result
  return { ...result, columns: result.columns.map((_, c) => formattedColumn(result, c)) }
}
