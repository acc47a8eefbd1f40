import { expect } from 'chai'
import { AppError } from '../../shared/errors.js'
import type { ErrorCode } from '../../shared/errors.js'
import { checkReadOnlySql, findTableRefs, rewriteTableRefs, tokenize } from '../../engine/sql/index.js'
import { randomStream } from '../../engine/demo/random.js'

/** Runs the guard and returns what it threw, or undefined. */
function guardError(sql: string): unknown {
  try {
    checkReadOnlySql(sql)
    return undefined
  } catch (err) {
    return err
  }
}

const ALLOWED: readonly { name: string; sql: string }[] = [
  { name: 'a plain select', sql: 'SELECT 1' },
  { name: 'a lower-case select with a where clause', sql: 'select a, b from t where a > 1' },
  { name: 'a mixed-case select', sql: 'SeLeCt 1' },
  { name: 'a trailing semicolon', sql: 'SELECT 1;' },
  { name: 'several trailing semicolons and a line comment', sql: 'SELECT 1;; -- done\n' },
  { name: 'a block comment after the final semicolon', sql: 'SELECT 1; /* bye */' },
  { name: 'leading comments', sql: '-- note\n/* more */ SELECT 1' },
  { name: 'a byte-order mark before the query', sql: '\uFEFFSELECT 1' },
  { name: 'a subquery in FROM', sql: 'SELECT * FROM (SELECT a FROM t) AS s' },
  { name: 'scalar and EXISTS subqueries', sql: 'SELECT (SELECT max(a) FROM t) WHERE EXISTS (SELECT 1 FROM u)' },
  { name: 'a common table expression', sql: 'WITH x AS (SELECT 1 AS a) SELECT a FROM x' },
  {
    name: 'a recursive common table expression',
    sql: 'WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10) SELECT i FROM n',
  },
  { name: 'a materialized common table expression', sql: 'with x as materialized (select 1) select * from x' },
  { name: 'a VALUES statement', sql: "VALUES (1, 'a'), (2, 'b')" },
  { name: 'a window function', sql: 'SELECT a, row_number() OVER (PARTITION BY b ORDER BY c) FROM t' },
  {
    name: 'a named window with a frame',
    sql: 'SELECT sum(a) OVER w FROM t WINDOW w AS (ORDER BY b ROWS BETWEEN 1 PRECEDING AND CURRENT ROW)',
  },
  { name: 'compound selects', sql: 'SELECT a FROM t UNION SELECT a FROM u EXCEPT SELECT 1 INTERSECT SELECT 2' },
  { name: 'a string holding a semicolon', sql: "SELECT 'a;b' AS s" },
  { name: "the string 'delete'", sql: "SELECT * FROM t WHERE op = 'delete'" },
  { name: 'a string that holds a whole statement', sql: "SELECT 'it''s; DROP TABLE t'" },
  { name: 'a write word inside CASE strings', sql: "SELECT CASE WHEN a THEN 'insert' ELSE 'update' END FROM t" },
  { name: 'a double-quoted column named "update"', sql: 'SELECT "update" FROM t' },
  { name: 'backtick and bracket quoted write words', sql: 'SELECT `insert`, [drop] FROM t' },
  { name: 'a quoted name holding a semicolon', sql: 'SELECT "a;b" FROM t' },
  { name: 'a write statement inside a line comment', sql: 'SELECT 1 -- DELETE FROM t' },
  { name: 'a semicolon and a statement inside a block comment', sql: 'SELECT /* ; DROP TABLE t; */ 1' },
  { name: 'an unterminated block comment at the end, as SQLite does', sql: 'SELECT 1 /* open' },
  { name: 'the replace() string function', sql: "SELECT replace(name, 'a', 'b') FROM t" },
  { name: 'REPLACE ( with a space, still a function call', sql: "SELECT REPLACE (name, 'a', 'b') FROM t" },
  { name: 'a catalog path with a write word as a segment', sql: 'SELECT * FROM pub.release.notes' },
  { name: 'a column named like a keyword behind a table alias', sql: 'SELECT t.begin, t.update FROM t' },
  { name: 'names that merely start with write words', sql: 'SELECT updated_at, deleted, created, dropped FROM t' },
  { name: 'JSON operators', sql: "SELECT data ->> '$.a', data -> '$.b' FROM t" },
  { name: 'blob, hex, float and digit-separated literals', sql: "SELECT x'0A1B', 0x1F, .5e-3, 1_000" },
  { name: 'every parameter form', sql: 'SELECT ?, ?1, :a, @b, $c, #d' },
  { name: 'a Tcl parameter with a semicolon inside, one token to SQLite', sql: 'SELECT $a(x;y)' },
  { name: 'non-ASCII names', sql: 'SELECT café, 数量 FROM t' },
  { name: 'a quoted forbidden function name that is not called', sql: 'SELECT "load_extension" FROM t' },
  { name: 'a multi-line query with CRLF line ends', sql: 'SELECT a,\r\n  b\r\nFROM t\r\n' },
]

interface Refusal {
  readonly name: string
  readonly sql: string
  readonly code: ErrorCode
  /** The text the error points at (its first occurrence, or the `nth`), or undefined for no position. */
  readonly at?: string
  readonly nth?: number
  readonly line?: number
  readonly column?: number
  /** A part of the message that tells the user what to fix. */
  readonly says?: string
}

const WRITE_WORDS = [
  'INSERT',
  'UPDATE',
  'DELETE',
  'REPLACE',
  'CONFLICT',
  'CREATE',
  'DROP',
  'ALTER',
  'ATTACH',
  'DETACH',
  'PRAGMA',
  'VACUUM',
  'REINDEX',
  'ANALYZE',
  'BEGIN',
  'COMMIT',
  'ROLLBACK',
  'SAVEPOINT',
  'RELEASE',
]

const REFUSED: readonly Refusal[] = [
  { name: 'an empty query', sql: '', code: 'MISSING_PARAMETER', says: 'Send the SQL query in the parameter sql.' },
  { name: 'a query of whitespace', sql: '  \n\t ', code: 'MISSING_PARAMETER' },
  { name: 'a query of only a comment', sql: '-- only a comment', code: 'MISSING_PARAMETER' },
  { name: 'a query of comments and semicolons', sql: '/* only */ ;;', code: 'MISSING_PARAMETER' },

  { name: 'an unterminated string', sql: "SELECT 'abc", code: 'SQL_ERROR', at: "'", says: 'is not closed' },
  { name: 'an unterminated double-quoted name', sql: 'SELECT "abc FROM t', code: 'SQL_ERROR', at: '"' },
  { name: 'an unterminated bracketed name', sql: 'SELECT [abc FROM t', code: 'SQL_ERROR', at: '[', says: 'End it with ].' },
  { name: 'an unterminated backtick name', sql: 'SELECT `abc', code: 'SQL_ERROR', at: '`' },
  { name: 'an unterminated blob', sql: "SELECT x'0A", code: 'SQL_ERROR', at: "x'" },
  { name: 'a blob with an odd number of digits', sql: "SELECT x'0A1'", code: 'SQL_ERROR', at: "x'" },
  {
    name: 'an unterminated string on the second line, with its line and column',
    sql: "SELECT a,\n  'abc FROM t",
    code: 'SQL_ERROR',
    at: "'",
    line: 2,
    column: 3,
    says: 'line 2, column 3',
  },
  { name: 'a NUL character, where SQLite would stop reading', sql: 'SELECT 1\0; DROP TABLE t', code: 'SQL_ERROR', at: '\0' },
  { name: 'a stray backslash', sql: 'SELECT \\ 1', code: 'SQL_ERROR', at: '\\' },
  { name: 'a number glued to a name', sql: 'SELECT 1abc', code: 'SQL_ERROR', at: '1abc' },

  {
    name: 'two selects',
    sql: 'SELECT 1; SELECT 2',
    code: 'SQL_MULTIPLE_STATEMENTS',
    at: 'SELECT',
    nth: 1,
    says: 'a second statement starts at line 1, column 11',
  },
  { name: 'a select followed by DROP', sql: 'SELECT 1; DROP TABLE t', code: 'SQL_MULTIPLE_STATEMENTS', at: 'DROP' },
  {
    name: 'a statement hidden after a line comment',
    sql: 'SELECT 1; -- harmless\nDELETE FROM t',
    code: 'SQL_MULTIPLE_STATEMENTS',
    at: 'DELETE',
    line: 2,
    column: 1,
  },
  {
    name: 'a statement hidden between block comments around the semicolon',
    sql: 'SELECT 1 /* note */ ; /* x */ UPDATE t SET a = 1',
    code: 'SQL_MULTIPLE_STATEMENTS',
    at: 'UPDATE',
  },
  { name: 'a statement after several semicolons', sql: 'SELECT 1;;; VACUUM', code: 'SQL_MULTIPLE_STATEMENTS', at: 'VACUUM' },
  {
    name: 'a statement after a quote hidden in a bad Tcl parameter',
    sql: "SELECT :a(') ; DELETE FROM t; --'",
    code: 'SQL_MULTIPLE_STATEMENTS',
    at: 'DELETE',
  },
  { name: 'a second statement two lines down', sql: 'SELECT 1;\n\n  SELECT 2', code: 'SQL_MULTIPLE_STATEMENTS', at: 'SELECT', nth: 1, line: 3, column: 3 },
  { name: 'a write statement followed by a select', sql: 'INSERT INTO t VALUES (1); SELECT 1', code: 'SQL_MULTIPLE_STATEMENTS', at: 'SELECT' },

  {
    name: 'an INSERT',
    sql: 'INSERT INTO t VALUES (1)',
    code: 'SQL_NOT_READ_ONLY',
    at: 'INSERT',
    says: 'Only one read-only statement is allowed: found INSERT at line 1, column 1. Use SELECT, WITH or VALUES.',
  },
  { name: 'a lower-case insert', sql: 'insert into t values (1)', code: 'SQL_NOT_READ_ONLY', at: 'insert', says: 'found INSERT' },
  { name: 'a mixed-case insert', sql: 'InSeRt INTO t VALUES (1)', code: 'SQL_NOT_READ_ONLY', at: 'InSeRt' },
  { name: 'EXPLAIN, which is not SELECT', sql: 'EXPLAIN SELECT 1', code: 'SQL_NOT_READ_ONLY', at: 'EXPLAIN', says: 'found EXPLAIN' },
  { name: 'a parenthesised select', sql: '(SELECT 1)', code: 'SQL_NOT_READ_ONLY', at: '(' },
  { name: 'a leading semicolon', sql: ';SELECT 1', code: 'SQL_NOT_READ_ONLY', at: ';' },
  { name: 'a quoted "select" in first place', sql: '"SELECT" 1', code: 'SQL_NOT_READ_ONLY', at: '"' },
  ...WRITE_WORDS.map((w): Refusal => ({ name: `${w} as the first word`, sql: `${w} x`, code: 'SQL_NOT_READ_ONLY', at: w })),

  {
    name: 'a DELETE behind a common table expression',
    sql: 'WITH x AS (SELECT 1) DELETE FROM t',
    code: 'SQL_NOT_READ_ONLY',
    at: 'DELETE',
    says: 'found DELETE at line 1, column 22',
  },
  { name: 'an INSERT behind a common table expression', sql: 'WITH x AS (SELECT 1) INSERT INTO t SELECT * FROM x', code: 'SQL_NOT_READ_ONLY', at: 'INSERT' },
  { name: 'an UPDATE behind a lower-case CTE', sql: 'with x as (select 1) update t set a = 1', code: 'SQL_NOT_READ_ONLY', at: 'update' },
  { name: 'a REPLACE INTO behind a CTE', sql: 'WITH x AS (SELECT 1) REPLACE INTO t SELECT * FROM x', code: 'SQL_NOT_READ_ONLY', at: 'REPLACE' },
  ...WRITE_WORDS.map((w): Refusal => ({
    name: `${w} used as a bare name, asking for double quotes`,
    sql: `SELECT a AS ${w.toLowerCase()} FROM t`,
    code: 'SQL_NOT_READ_ONLY',
    at: w.toLowerCase(),
    says: `write it in double quotes ("${w.toLowerCase()}")`,
  })),

  {
    name: 'a call of load_extension',
    sql: "SELECT load_extension('evil.so')",
    code: 'SQL_NOT_READ_ONLY',
    at: 'load_extension',
    says: 'the function load_extension',
  },
  { name: 'an upper-case call of load_extension with a space', sql: "select LOAD_EXTENSION ('x', 'y')", code: 'SQL_NOT_READ_ONLY', at: 'LOAD' },
  { name: 'a call of load_extension with a comment before the parenthesis', sql: "SELECT load_extension/* */('x')", code: 'SQL_NOT_READ_ONLY', at: 'load' },
  { name: 'a call of load_extension through a quoted name', sql: `SELECT "load_extension"('x')`, code: 'SQL_NOT_READ_ONLY', at: '"' },
  { name: 'a call of readfile', sql: "SELECT readfile('/etc/passwd')", code: 'SQL_NOT_READ_ONLY', at: 'readfile' },
  { name: 'a call of writefile', sql: "SELECT writefile('x', 'y')", code: 'SQL_NOT_READ_ONLY', at: 'writefile' },
  { name: 'a call of fts3_tokenizer', sql: "SELECT fts3_tokenizer('simple')", code: 'SQL_NOT_READ_ONLY', at: 'fts3_tokenizer' },
]

/** Offset of the nth occurrence of `needle`. */
function offsetOf(sql: string, needle: string, nth = 0): number {
  let at = sql.indexOf(needle)
  for (let i = 0; i < nth; i++) at = sql.indexOf(needle, at + 1)
  if (at < 0) throw new Error(`fixture error: ${JSON.stringify(needle)} is not in ${JSON.stringify(sql)}`)
  return at
}

describe('checkReadOnlySql()', () => {
  describe('accepts', () => {
    for (const c of ALLOWED) it(`accepts ${c.name}`, () => expect(() => checkReadOnlySql(c.sql)).not.to.throw())
  })

  describe('refuses', () => {
    for (const c of REFUSED) {
      it(`refuses ${c.name} with ${c.code}`, () => {
        const err = guardError(c.sql)
        expect(err).to.be.instanceOf(AppError)
        const e = err as AppError
        expect(e.code).to.equal(c.code)
        if (c.at !== undefined) expect(e.detail.position).to.equal(offsetOf(c.sql, c.at, c.nth))
        if (c.line !== undefined) expect(e.detail).to.include({ line: c.line, column: c.column })
        if (c.says !== undefined) expect(e.message).to.include(c.says)
      })
    }
  })

  it('gives the line and column of a position in its message and its detail', () => {
    const e = guardError('SELECT 1\nFROM t;\n  DROP TABLE t') as AppError
    expect(e.detail).to.deep.equal({ position: 19, line: 3, column: 3 })
    expect(e.message).to.include('line 3, column 3')
  })
})

const FRAGMENTS = [
  'SELECT ',
  'select',
  ' FROM ',
  'WITH ',
  'VALUES',
  ' WHERE ',
  'delete',
  'Insert',
  'replace(',
  'load_extension(',
  'pub.demo.retail.item',
  '"pub.demo.x"',
  '`a.b`',
  '[c.d]',
  'i.store',
  '.',
  '..',
  '*',
  ',',
  '(',
  ')',
  ';',
  ' ',
  '\n',
  '\r',
  '\t',
  '\v',
  '\f',
  '\0',
  '\uFEFF',
  "'",
  "''",
  '"',
  '""',
  '`',
  '[',
  ']',
  "x'",
  "X'0A'",
  '--',
  '/*',
  '*/',
  ':a(',
  '$a::b',
  '@',
  '#',
  '?',
  '?12',
  '0x',
  '1e',
  '1_0',
  '.5',
  '->>',
  '||',
  '!',
  '!=',
  '\\',
  'é',
  '数',
  '\uD800',
  ' AS ',
]

/** How many times the tokens `"t<n>"`, `.`, `"data"` follow each other: what a rewritten ref must lex as. */
function countSchemaTables(sql: string): number {
  const tokens = tokenize(sql)
  let count = 0
  for (let i = 0; i + 2 < tokens.length; i++) {
    const [schema, dot, table] = [tokens[i], tokens[i + 1], tokens[i + 2]]
    if (schema.type !== 'ident' || !schema.quoted || !/^t\d+$/.test(schema.value) || dot.text !== '.') continue
    if (table.type === 'ident' && table.quoted && table.value === 'data') count++
  }
  return count
}

describe('tokenize(), checkReadOnlySql() and the table refs on random text', () => {
  const random = randomStream(20240501)
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]
  const inputs: string[] = []
  for (let n = 0; n < 2000; n++) {
    let s = ''
    const parts = 1 + Math.floor(random() * 12)
    for (let i = 0; i < parts; i++) s += random() < 0.75 ? pick(FRAGMENTS) : String.fromCharCode(Math.floor(random() * 0x3000))
    inputs.push(s)
  }

  it('tokenizes every input into non-empty, contiguous tokens that concatenate back to it', () => {
    for (const sql of inputs) {
      const tokens = tokenize(sql)
      expect(tokens.map((t) => t.text).join(''), JSON.stringify(sql)).to.equal(sql)
      let at = 0
      for (const t of tokens) {
        expect(t.start, JSON.stringify(sql)).to.equal(at)
        expect(t.end, JSON.stringify(sql)).to.be.greaterThan(t.start)
        expect(sql.slice(t.start, t.end)).to.equal(t.text)
        at = t.end
      }
    }
  })

  it('never throws anything but an AppError from the guard, with positions inside the text', () => {
    for (const sql of inputs) {
      const err = guardError(sql)
      if (err === undefined) continue
      expect(err, JSON.stringify(sql)).to.be.instanceOf(AppError)
      const { position } = (err as AppError).detail
      if (position !== undefined) expect(position).to.be.within(0, sql.length)
    }
  })

  it('finds refs in order, inside the text, and rewrites nothing when the map is empty', () => {
    for (const sql of inputs) {
      let at = 0
      for (const ref of findTableRefs(sql)) {
        expect(ref.start, JSON.stringify(sql)).to.be.at.least(at)
        expect(ref.end).to.be.greaterThan(ref.start).and.at.most(sql.length)
        at = ref.end
      }
      expect(rewriteTableRefs(sql, new Map())).to.equal(sql)
    }
  })

  it('rewrites every ref into three clean tokens and keeps an accepted query accepted', () => {
    for (const sql of inputs) {
      const refs = findTableRefs(sql)
      const aliases = new Map(refs.map((r, i) => [r.path, `t${i}`]))
      let rewritten: string
      try {
        rewritten = rewriteTableRefs(sql, aliases)
      } catch (err) {
        expect(err, JSON.stringify(sql)).to.be.instanceOf(AppError)
        continue
      }
      expect(countSchemaTables(rewritten), JSON.stringify(rewritten)).to.equal(refs.length)
      if (guardError(sql) === undefined) expect(guardError(rewritten), JSON.stringify(rewritten)).to.equal(undefined)
    }
  })
})
