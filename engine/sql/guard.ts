/**
 * The gateway's first look at user SQL: one statement, read-only, lexically sound. It works on
 * tokens, so `'delete'` in a string or `"update"` as a quoted name pass, while DELETE hidden
 * after a comment or behind a CTE does not. It is a courtesy with good messages, not the only
 * wall: the worker also runs the query on a `query_only` connection with only the caller's tables.
 */
import { AppError } from '../../shared/errors.js'
import type { ErrorCode } from '../../shared/errors.js'
import { asciiLower, isOp, isSignificant, keywordOf, seekSignificant, tokenize } from './tokenize.js'
import type { ErrorToken, LexErrorReason, Token } from './tokenize.js'

const STATEMENT_STARTS = new Set(['SELECT', 'WITH', 'VALUES'])

/** Keywords that occur only in statements that write, change the schema, the connection or a transaction. */
const WRITE_KEYWORDS = new Set([
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
])

/** Functions that reach outside the database: files, native extensions, tokenizer pointers. */
const FORBIDDEN_FUNCTIONS = new Set(['load_extension', 'readfile', 'writefile', 'fts3_tokenizer'])

/**
 * Throws an AppError unless `sql` is a single read-only statement (SELECT, WITH or VALUES).
 * Codes: MISSING_PARAMETER (nothing but whitespace and comments), SQL_ERROR (a literal, name or
 * character SQLite cannot read), SQL_MULTIPLE_STATEMENTS, SQL_NOT_READ_ONLY. Every error but the
 * empty-query one carries `detail: { position, line, column }`: a 0-based offset (UTF-16 code
 * units) and a 1-based line and column.
 */
export function checkReadOnlySql(sql: string): void {
  const tokens = tokenize(sql)
  if (!tokens.some((t) => isSignificant(t) && !isOp(t, ';'))) {
    const message = 'The SQL query is empty. Send the SQL query in the parameter sql.'
    throw new AppError('MISSING_PARAMETER', message, { parameter: 'sql' })
  }
  const bad = tokens.find((t): t is ErrorToken => t.type === 'error')
  if (bad) throw refuse('SQL_ERROR', sql, bad, (at) => LEX_MESSAGES[bad.reason](bad, at))
  const second = findSecondStatement(tokens)
  if (second) {
    throw refuse(
      'SQL_MULTIPLE_STATEMENTS',
      sql,
      second,
      (at) => `Only one SQL statement is allowed per request: a second statement starts at ${at}. Send it as a separate request.`,
    )
  }
  checkFirstKeyword(sql, tokens[seekSignificant(tokens, 0)])
  checkWriteWords(sql, tokens)
}

/** The first token of a non-empty statement after a `;` that ended a non-empty one. */
function findSecondStatement(tokens: readonly Token[]): Token | undefined {
  let inStatement = false
  let ended = false
  for (const t of tokens) {
    if (!isSignificant(t)) continue
    if (isOp(t, ';')) ended = inStatement
    else if (ended) return t
    else inStatement = true
  }
  return undefined
}

function checkFirstKeyword(sql: string, first: Token): void {
  const keyword = keywordOf(first)
  if (keyword !== undefined && STATEMENT_STARTS.has(keyword)) return
  throw refuse('SQL_NOT_READ_ONLY', sql, first, (at) =>
    keyword !== undefined
      ? `Only one read-only statement is allowed: found ${keyword} at ${at}. Use SELECT, WITH or VALUES.`
      : `The query must start with SELECT, WITH or VALUES: found ${JSON.stringify(excerpt(first.text))} at ${at}.`,
  )
}

/** Refuses a write keyword or a forbidden function call anywhere in the statement. */
function checkWriteWords(sql: string, tokens: readonly Token[]): void {
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]
    if (t.type !== 'ident') continue
    const calls = isOp(tokens[seekSignificant(tokens, i + 1)], '(')
    if (calls && FORBIDDEN_FUNCTIONS.has(asciiLower(t.value))) {
      throw refuse(
        'SQL_NOT_READ_ONLY',
        sql,
        t,
        (at) => `Only read-only queries are allowed: the function ${t.value} (called at ${at}) is not available. Remove the call.`,
      )
    }
    const keyword = keywordOf(t)
    if (keyword === undefined || !WRITE_KEYWORDS.has(keyword)) continue
    // replace(x, y, z) is a string function; the REPLACE of writes is never followed by '('.
    if (keyword === 'REPLACE' && calls) continue
    // A part of a dotted name (`pub.release.notes`, `t.begin`) is a name: no statement puts a '.' next to its keyword.
    if (isOp(tokens[i - 1], '.') || isOp(tokens[i + 1], '.')) continue
    throw refuse(
      'SQL_NOT_READ_ONLY',
      sql,
      t,
      (at) =>
        `Only one read-only statement is allowed: found ${keyword} at ${at}. Use SELECT, WITH or VALUES; ` +
        `to use ${keyword} as a name, write it in double quotes ("${t.value}").`,
    )
  }
}

const LEX_MESSAGES: Record<LexErrorReason, (t: ErrorToken, at: string) => string> = {
  'unterminated-string': (_, at) => `The string that starts at ${at} is not closed. End it with ' (write '' for a quote inside a string).`,
  'unterminated-identifier': (t, at) => `The quoted name that starts at ${at} is not closed. End it with ${t.text[0] === '[' ? ']' : t.text[0]}.`,
  'unterminated-blob': (_, at) => `The blob literal that starts at ${at} is not closed. End it with '.`,
  'bad-blob': (t, at) =>
    `The blob literal ${excerpt(t.text)} at ${at} is not valid. ` + `Write an even number of hex digits between the quotes, as in x'0A1B'.`,
  'bad-number': (t, at) =>
    `The number ${JSON.stringify(excerpt(t.text))} at ${at} is not valid. ` + 'Check its digits, and put a space between a number and a name.',
  'bad-parameter': (t, at) => `The parameter ${JSON.stringify(excerpt(t.text))} at ${at} is not valid. Write parameters as ?, ?1, :name, @name or $name.`,
  'bad-character': (t, at) => `The character ${describeChar(t.text)} at ${at} cannot appear in SQL outside a string. Remove it, or put it inside quotes.`,
  nul: (_, at) => `The SQL contains a NUL character at ${at}. Remove it.`,
}

/** Builds the error with the token's position; `message` receives "line L, column C". */
function refuse(code: ErrorCode, sql: string, t: Token, message: (at: string) => string): AppError {
  const { line, column } = lineAndColumn(sql, t.start)
  return new AppError(code, message(`line ${line}, column ${column}`), { position: t.start, line, column })
}

/** 1-based line and column of an offset. Lines end at '\n' only, as SQLite's `--` comments do. */
function lineAndColumn(sql: string, position: number): { line: number; column: number } {
  let line = 1
  let lineStart = 0
  for (let i = 0; i < position; i++) {
    if (sql.charCodeAt(i) === 10) {
      line++
      lineStart = i + 1
    }
  }
  return { line, column: position - lineStart + 1 }
}

/** Long tokens (an unterminated string runs to the end of the text) are cut for the message. */
const excerpt = (text: string): string => (text.length > 24 ? `${text.slice(0, 20)}…` : text)

function describeChar(ch: string): string {
  const code = ch.charCodeAt(0)
  const hex = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`
  return code > 32 && code < 127 ? `"${ch}" (${hex})` : hex
}
