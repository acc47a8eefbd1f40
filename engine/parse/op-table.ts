/**
 * `<table>`: an inline table. The content is rows separated by `;` and cells by `,`; a cell in
 * single quotes may hold `,` and `;` (a doubled quote inside is one quote). Blank rows (such as
 * the one after a trailing `;`) are dropped; an empty cell is N/A.
 */
import type { Op, XmlElement } from '../ast.js'
import { attr, choiceAttr, countAttr, nameList } from './attrs.js'
import { opError } from './op-errors.js'
import { readTableTree } from './op-table-xml.js'

/** `<table>`: csv content, a Table Tree (`format="xml"`, op-table-xml.ts), or `depth` rows with no columns. */
export function buildTable(el: XmlElement): Op {
  const format = choiceAttr(el, 'format', ['csv', 'empty', 'xml'] as const, 'csv')
  const title = attr(el, 'title') ?? ''
  if (format === 'xml') {
    if (attr(el, 'depth') !== undefined || attr(el, 'cols') !== undefined)
      throw opError(el, '<table format="xml"> declares its columns in its <cols>: drop depth and cols')
    return { kind: 'Table', ...readTableTree(el), depth: null, title, loc: el.loc }
  }
  const content = tableContent(el)
  const cols = nameList(el, 'cols') ?? []
  const depth = countAttr(el, 'depth') ?? null
  if (depth !== null) {
    if (cols.length > 0 || content.trim() !== '') throw opError(el, '<table depth> makes rows without columns: it cannot be combined with cols or data')
    return { kind: 'Table', cols: [], rows: [], depth, title, loc: el.loc }
  }
  const rows = format === 'empty' ? [] : parseRows(el, content)
  if (rows.length > 0 && cols.length === 0) throw opError(el, '<table> with data needs a cols attribute naming its columns', { attribute: 'cols' })
  rows.forEach((row, i) => {
    if (row.length !== cols.length)
      throw opError(
        el,
        `row ${i + 1} of <table> has ${row.length} value${row.length === 1 ? '' : 's'}, but cols names ${cols.length} column${cols.length === 1 ? '' : 's'}`,
      )
  })
  return { kind: 'Table', cols, rows, depth: null, title, loc: el.loc }
}

function tableContent(el: XmlElement): string {
  let text = ''
  for (const child of el.children) {
    if (child.kind === 'Element') throw opError(el, `<${child.name}> cannot appear inside <table>: its content is rows of values`)
    text += child.text
  }
  return text
}

/**
 * Splits the content into rows of cells. Cells are sliced out of the text whole, not built a
 * character at a time: an inline table may be megabytes long.
 */
function parseRows(el: XmlElement, text: string): string[][] {
  const rows: string[][] = []
  let row: string[] = []
  let cellStart = 0
  /** Whether the cell so far is only white space (a quote then opens a quoted value). */
  let blank = true
  let quoted: string | null = null
  const endCell = (end: number): void => {
    row.push(quoted ?? text.slice(cellStart, end).trim())
    cellStart = end + 1
    blank = true
    quoted = null
  }
  const endRow = (end: number): void => {
    endCell(end)
    if (!(row.length === 1 && row[0] === '')) rows.push(row)
    row = []
  }
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (c === "'" && quoted === null && blank) {
      const q = readQuoted(el, text, i)
      quoted = q.value
      i = q.end
    } else if (c === ',') endCell(i)
    else if (c === ';') endRow(i)
    else if (c.trim() !== '') {
      if (quoted !== null) throw opError(el, `unexpected '${c}' after the quoted value '${quoted}' in <table>: expected ',' or ';'`)
      blank = false
    }
  }
  endRow(text.length)
  return rows
}

/** Reads a quoted cell starting at `start`; returns its value and the offset of its closing quote. */
function readQuoted(el: XmlElement, text: string, start: number): { value: string; end: number } {
  let value = ''
  let run = start + 1
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] !== "'") continue
    value += text.slice(run, i)
    if (text[i + 1] !== "'") return { value, end: i }
    // A doubled quote is one quote.
    value += "'"
    i++
    run = i + 1
  }
  throw opError(el, `a quoted value in <table> is never closed: expected ' after '${(value + text.slice(run)).slice(0, 20)}'`)
}
