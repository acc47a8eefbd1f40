/**
 * `<cols>`: column metadata driven by a table. Its rows come from an inline `<table>` child
 * whose columns are `name` and/or `ord` (which column) and any of `label`, `desc`, `format`,
 * `width`, `fixed` (what to set); a blank cell leaves that field as it is.
 */
import type { ColsEntry, Op, XmlElement } from '../ast.js'
import { attr, metaPatch, normName } from './attrs.js'
import { opError } from './op-errors.js'
import { buildTable } from './op-table.js'

const TARGET_COLUMNS = ['name', 'ord']
const META_COLUMNS = ['label', 'desc', 'format', 'width', 'fixed']

export function buildCols(el: XmlElement): Op {
  if (attr(el, 'table2') !== undefined) {
    throw opError(
      el,
      '<cols table2> is not supported: give the metadata rows in an inline <table> inside <cols>, as in <cols><table cols="name,label">sales,Sales;</table></cols>',
      {
        attribute: 'table2',
      },
    )
  }
  const children = el.children.filter((c) => c.kind === 'Element' || c.text.trim() !== '')
  const table = children[0]
  if (children.length !== 1 || table.kind !== 'Element' || table.name !== 'table') {
    throw opError(el, '<cols> needs exactly one inline <table> child holding its rows, as in <cols><table cols="name,label">sales,Sales;</table></cols>')
  }
  const op = buildTable(table)
  if (op.kind !== 'Table') throw new Error('unreachable: buildTable builds a Table')
  const unknown = op.cols.find((c) => !TARGET_COLUMNS.includes(c) && !META_COLUMNS.includes(c))
  if (unknown !== undefined)
    throw opError(table, `<cols> table has a column '${unknown}'; its columns may be ${[...TARGET_COLUMNS, ...META_COLUMNS].join(', ')}`)
  if (!op.cols.includes('name') && !op.cols.includes('ord'))
    throw opError(table, '<cols> table needs a name or an ord column saying which column each row changes')
  const entries = op.rows.map((row, i) => entry(table, op.cols, row, i + 1))
  const ords = entries.map((e) => e.ord).filter((o) => o !== null)
  const repeated = ords.find((o, i) => ords.indexOf(o) !== i)
  if (repeated !== undefined) throw opError(table, `<cols> table gives ord ${repeated} twice: each position may be given once`)
  return { kind: 'Cols', entries, loc: el.loc }
}

/** One row as an entry; its metadata cells are read like the attributes of a <col>. */
function entry(table: XmlElement, cols: readonly string[], row: readonly string[], n: number): ColsEntry {
  const cell = (name: string): string => row[cols.indexOf(name)] ?? ''
  const name = cell('name').trim() === '' ? null : normName(cell('name'))
  const ordText = cell('ord').trim()
  if (ordText !== '' && !/^[1-9]\d{0,8}$/.test(ordText)) throw opError(table, `row ${n} of the <cols> table: ord must be a whole number ≥ 1, not '${ordText}'`)
  const ord = ordText === '' ? null : Number(ordText)
  if (name === null && ord === null) throw opError(table, `row ${n} of the <cols> table gives neither a name nor an ord`)
  const attrs: Record<string, string> = {}
  for (const m of META_COLUMNS) if (cols.includes(m)) attrs[m] = cell(m)
  // Read as the attributes of an element named for the row, so a bad width or fixed says where it is.
  const meta = metaPatch({ kind: 'Element', name: `cols> row ${n} <col`, attrs, children: [], loc: table.loc })
  return { name, ord, meta }
}
