/** A CSV text as rows of fields (header first), read by the uploads' reader: for comparing CSV in tests. */
import { readCsv } from '../../shared/csv/read.js'

export function csvRows(text: string): string[][] {
  const { header, cells } = readCsv(text)
  const rows = [header]
  for (let r = 0; r < cells[0].length; r++) rows.push(cells.map((column) => column[r]))
  return rows
}
