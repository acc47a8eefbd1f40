/**
 * Reading a sqllogictest script into records. The format (SQLite's own, public domain): records
 * separated by blank lines; `#` starts a comment line; a record may be preceded by `skipif <db>` /
 * `onlyif <db>` lines, and is one of
 *
 *   statement ok|error          then the SQL, up to a blank line
 *   query <types> [<sort> [<label>]]   then the SQL, `----`, and the expected values up to a blank line
 *   hash-threshold <n>          answers with more values than n are given as "<n> values hashing to <md5>"
 *   halt                        stop reading the script
 *
 * We are the database `sqlite`: a record under `onlyif` another database or `skipif sqlite` is
 * left out here, before anything runs.
 */

export type SortMode = 'nosort' | 'rowsort' | 'valuesort'

/** What a query's answer must be: its values one by one, or their count and md5. */
export type Expected = { readonly kind: 'values'; readonly lines: readonly string[] } | { readonly kind: 'hash'; readonly count: number; readonly md5: string }

export interface StatementRecord {
  readonly kind: 'statement'
  readonly line: number
  readonly expectError: boolean
  readonly sql: string
}

export interface QueryRecord {
  readonly kind: 'query'
  readonly line: number
  /** One letter a column: I integer, R real, T text. */
  readonly types: string
  readonly sort: SortMode
  readonly label: string | undefined
  readonly sql: string
  readonly expected: Expected
}

export interface ThresholdRecord {
  readonly kind: 'hash-threshold'
  readonly line: number
  readonly threshold: number
}

export interface HaltRecord {
  readonly kind: 'halt'
  readonly line: number
}

export type SltRecord = StatementRecord | QueryRecord | ThresholdRecord | HaltRecord

/** The database name `skipif`/`onlyif` lines are read against. */
export const OUR_DB = 'sqlite'

const HASH_LINE = /^(\d+) values hashing to ([0-9a-f]{32})$/

/** The records of a script that apply to SQLite, in order; throws on a line it cannot read. */
export function parseScript(text: string, name = 'script'): SltRecord[] {
  const lines = text.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l))
  const records: SltRecord[] = []
  let i = 0
  /** The line of the record being read (1-based), for messages. */
  let line = 0
  const blank = (l: string | undefined): boolean => l === undefined || l.trim() === ''
  const fail = (msg: string): never => {
    throw new Error(`${name}:${line || i + 1}: ${msg}`)
  }
  while (i < lines.length) {
    if (blank(lines[i]) || lines[i].startsWith('#')) {
      i++
      continue
    }
    line = i + 1
    let applies = true
    let words = wordsOf(lines[i])
    while (words[0] === 'skipif' || words[0] === 'onlyif') {
      if (words[0] === 'skipif' && words[1] === OUR_DB) applies = false
      if (words[0] === 'onlyif' && words[1] !== OUR_DB) applies = false
      i++
      if (blank(lines[i])) fail(`${words[0]} without a record after it`)
      words = wordsOf(lines[i])
    }
    line = i + 1
    i++
    const sqlLines: string[] = []
    const takeSql = (): string => {
      while (!blank(lines[i]) && lines[i] !== '----') sqlLines.push(lines[i++])
      return sqlLines.join('\n')
    }
    switch (words[0]) {
      case 'statement': {
        if (words[1] !== 'ok' && words[1] !== 'error') fail(`statement ${words[1]}: expected ok or error`)
        const sql = takeSql()
        if (applies) records.push({ kind: 'statement', line, expectError: words[1] === 'error', sql })
        break
      }
      case 'query': {
        const types = words[1] ?? fail('query without column types')
        if (!/^[ITR]+$/.test(types)) fail(`query types ${types}: expected letters I, T and R`)
        const sort = (words[2] ?? 'nosort') as SortMode
        if (sort !== 'nosort' && sort !== 'rowsort' && sort !== 'valuesort') fail(`sort mode ${sort}`)
        const sql = takeSql()
        const expectedLines: string[] = []
        if (lines[i] === '----') {
          i++
          while (!blank(lines[i])) expectedLines.push(lines[i++])
        }
        const hash = expectedLines.length === 1 ? HASH_LINE.exec(expectedLines[0]) : null
        const expected: Expected = hash ? { kind: 'hash', count: Number(hash[1]), md5: hash[2] } : { kind: 'values', lines: expectedLines }
        if (applies) records.push({ kind: 'query', line, types, sort, label: words[3], sql, expected })
        break
      }
      case 'hash-threshold':
        if (applies) records.push({ kind: 'hash-threshold', line, threshold: Number(words[1]) })
        break
      case 'halt':
        if (applies) records.push({ kind: 'halt', line })
        break
      default:
        fail(`unknown record "${lines[line - 1]}"`)
    }
  }
  return records
}

/** The words of a control line, without a trailing `# comment`. */
function wordsOf(line: string): string[] {
  const hash = line.indexOf('#')
  return (hash >= 0 ? line.slice(0, hash) : line).trim().split(/\s+/)
}
