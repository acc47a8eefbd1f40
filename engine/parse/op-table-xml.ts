/**
 * `<table format="xml">`: the content is a Table Tree, 1010data's upload format:
 * `<cols><th name type format desc fixed>heading</th>…</cols><data><tr><td>value</td>…</tr>…</data>`.
 * Each `<th>` declares its column's type (i integer, j big integer, f float, a text), so cells are checked
 * against it here rather than inferred; the heading becomes the column's label. Other children
 * of the tree (title, sdesc, ldesc…) describe the table and are ignored.
 */
import { bigintOfText } from '../../shared/bigint-text.js'
import type { MetaPatch, XmlElement, XmlNode } from '../ast.js'
import type { ColumnType } from '../../shared/table.js'
import { attr, metaPatch, newColumnName } from './attrs.js'
import { opError } from './op-errors.js'

export interface TreeTable {
  readonly cols: readonly string[]
  readonly types: readonly ColumnType[]
  readonly meta: readonly MetaPatch[]
  readonly rows: readonly (readonly string[])[]
}

const TYPES: Readonly<Record<string, ColumnType>> = { i: 'int', j: 'bigint', f: 'float', a: 'text' }
const INT = /^[+-]?\d{1,16}$/
const NUM = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/

export function readTableTree(table: XmlElement): TreeTable {
  const parts = elementsOf(table, table)
  const cols = parts.find((p) => p.name === 'cols')
  if (!cols) throw opError(table, '<table format="xml"> needs a <cols> element with one <th> per column')
  const heads = elementsOf(cols, table).filter((h) => h.name !== 'note')
  const bad = heads.find((h) => h.name !== 'th')
  if (bad) throw opError(table, `<${bad.name}> cannot appear inside the <cols> of <table format="xml">: expected <th>`)
  if (heads.length === 0) throw opError(table, '<table format="xml"> needs at least one <th> in its <cols>')
  const names = heads.map((th) => newColumnName(th, 'name', attr(th, 'name') ?? ''))
  const repeated = names.find((n, i) => names.indexOf(n) !== i)
  if (repeated) throw opError(table, `<table format="xml"> declares the column ${repeated} twice`)
  const types = heads.map((th, i) => declaredType(th, names[i], table))
  const meta = heads.map(headingMeta)
  const data = parts.find((p) => p.name === 'data')
  const rows = (data ? elementsOf(data, table) : []).map((tr, r) => {
    if (tr.name !== 'tr') throw opError(table, `<${tr.name}> cannot appear inside the <data> of <table format="xml">: expected <tr>`)
    const cells = elementsOf(tr, table).map((td) => {
      if (td.name !== 'td') throw opError(table, `<${td.name}> cannot appear inside a <tr> of <table format="xml">: expected <td>`)
      return textOf(td, table).trim()
    })
    if (cells.length !== names.length)
      throw opError(table, `row ${r + 1} of <table format="xml"> has ${cells.length} <td>, but <cols> declares ${names.length} columns`)
    cells.forEach((cell, c) => checkCell(cell, types[c], names[c], r + 1, table))
    return cells
  })
  return { cols: names, types, meta, rows }
}

function declaredType(th: XmlElement, name: string, table: XmlElement): ColumnType {
  const letter = (attr(th, 'type') ?? '').trim().toLowerCase()
  const type = Object.hasOwn(TYPES, letter) ? TYPES[letter] : undefined
  if (!type) throw opError(table, `<th name="${name}"> needs type i (integer), j (big integer), f (float) or a (text), not '${letter}'`)
  return type
}

/** The heading (the `<th>` text; a backquote or newline breaks lines in 1010data) is the label. */
function headingMeta(th: XmlElement): MetaPatch {
  const heading = th.children.map((c) => (c.kind === 'Text' ? c.text : '')).join('')
  const meta = metaPatch({ ...th, attrs: { format: th.attrs.format ?? '', desc: th.attrs.desc ?? '', fixed: th.attrs.fixed ?? '' } })
  return heading.trim() === '' ? meta : { ...meta, label: heading.trim().replace(/\s*\n\s*/g, '`') }
}

function checkCell(cell: string, type: ColumnType, name: string, row: number, table: XmlElement): void {
  if (cell === '' || type === 'text') return
  const ok = type === 'int' ? INT.test(cell) && Math.abs(Number(cell)) <= 2147483647 : type === 'bigint' ? bigintOfText(cell) !== null : NUM.test(cell)
  const wanted = type === 'int' ? 'an integer (type i, 32-bit)' : type === 'bigint' ? 'an integer within ±(2^63 − 1) (type j)' : 'a number (type f)'
  if (!ok) throw opError(table, `row ${row} of <table format="xml">: '${cell}' in column ${name} is not ${wanted}`)
}

function elementsOf(el: XmlElement, table: XmlElement): XmlElement[] {
  const out: XmlElement[] = []
  for (const child of el.children) {
    if (child.kind === 'Element') out.push(child)
    else if (child.text.trim() !== '') throw opError(table, `unexpected text '${child.text.trim().slice(0, 20)}' inside <${el.name}> of <table format="xml">`)
  }
  return out
}

function textOf(td: XmlElement, table: XmlElement): string {
  return td.children
    .map((c: XmlNode) => {
      if (c.kind === 'Element') throw opError(table, `<${c.name}> cannot appear inside a <td> of <table format="xml">: a cell holds a value`)
      return c.text
    })
    .join('')
}
