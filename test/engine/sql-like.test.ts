/**
 * LIKE on the compiled engine (functions/sql/kernels.ts likeMatcher) against sql.js: a `%` at
 * either end leaves that end of the pattern unanchored, and the answer must stay SQLite's for
 * every shape of pattern: wildcards at the ends, inside, alone, doubled, `_` beside them, case
 * folded for ASCII letters only, text with line breaks and characters outside the BMP. Over a
 * table with few distinct texts and many rows, so the pattern is also tested once per entry.
 */
import { bothTablesBefore, itCompilesAsSqlite } from '../helpers/sql-answers.js'

const TEXTS = [null, 'google', 'Google.com', 'www.google.de/search', 'xgooglex', 'goo\ngle', 'a\nb%c_d', 'é_É', '😀x', 'x😀', 'abc', 'ABCabc', 'aXc', '']
const ROWS = 300

const PATTERNS = [
  '%google%',
  'google%',
  '%google',
  'google',
  '%',
  '%%',
  '%%google%%',
  '_oogle%',
  '%o_gle',
  '%_%',
  '_',
  '__',
  '%x',
  'x%',
  '%😀%',
  '_x',
  'x_',
  'a%c',
  'a%b%c%',
  '%\n%',
  'é%',
  'É%',
  '%abc',
  'abc%',
  '%a_c%',
]

describe('LIKE on the compiled engine, as SQLite answers it', () => {
  const tables = bothTablesBefore({
    'pub.like.t': [
      { name: 'n', type: 'int', values: Array.from({ length: ROWS }, (_, i) => i) },
      { name: 's', type: 'text', values: Array.from({ length: ROWS }, (_, i) => TEXTS[(i * 7) % TEXTS.length]!) },
    ],
  })
  const quoted = (p: string) => `'${p.replaceAll("'", "''")}'`
  itCompilesAsSqlite(
    PATTERNS.flatMap((p) => [
      `select n, s like ${quoted(p)} as x from pub.like.t`,
      `select count(*) as c from pub.like.t where s like ${quoted(p)}`,
      `select n from pub.like.t where s not like ${quoted(p)} and n < 100`,
    ]),
    tables,
  )
})
