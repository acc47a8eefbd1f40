/**
 * Generators of inputs that are valid by construction: well-typed numeric and text expressions
 * over known columns, macro pipelines of them over a known table, read-only SQL selects, API paths
 * of every shape the gateway serves, and well-formed session cookies. They are the positive
 * controls of the fuzzers: a parser that refused everything would pass every hostile property
 * (a 4xx is allowed there), but not these, where every case must be accepted.
 */
import fc from 'fast-check'

/** The columns expressions may name: of the schema the expression fuzzers use, of table pub.t. */
interface Columns {
  readonly numbers: readonly string[]
  readonly texts: readonly string[]
}
const SCHEMA_COLUMNS: Columns = { numbers: ['a', 'x1', 'b', 'sales'], texts: ['state', 'g'] }
const PUB_T_COLUMNS: Columns = { numbers: ['a', 'b'], texts: ['state'] }

/** A numeric expression: literals, columns, arithmetic, abs, max. */
const numericOf = (cols: Columns): fc.Arbitrary<string> =>
  fc.letrec<{ n: string }>((tie) => ({
    n: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.integer({ min: 0, max: 10_000 }).map(String),
      fc.double({ min: 0, max: 1e6, noNaN: true, noDefaultInfinity: true }).map((x) => x.toFixed(3)),
      fc.constantFrom(...cols.numbers),
      fc.tuple(tie('n'), fc.constantFrom('+', '-', '*', '/'), tie('n')).map(([l, op, r]) => `(${l})${op}(${r})`),
      tie('n').map((e) => `-(${e})`),
      tie('n').map((e) => `abs(${e})`),
      fc.tuple(tie('n'), tie('n')).map(([l, r]) => `max(${l};${r})`),
    ),
  })).n

/** A text expression: columns, quoted literals, strupcase, substr. */
const textOf = (cols: Columns): fc.Arbitrary<string> =>
  fc.oneof(
    fc.constantFrom(...cols.texts),
    fc.stringMatching(/^[a-z ]{0,8}$/).map((s) => `'${s}'`),
    fc.constantFrom(...cols.texts).map((c) => `strupcase(${c})`),
    fc.tuple(fc.constantFrom(...cols.texts), fc.integer({ min: 1, max: 5 })).map(([c, n]) => `substr(${c};1;${n})`),
  )

/** A test: a comparison of numbers or of texts, combined with & and |. */
const conditionOf = (cols: Columns): fc.Arbitrary<string> =>
  fc.letrec<{ c: string }>((tie) => ({
    c: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.tuple(numericOf(cols), fc.constantFrom('<', '<=', '=', '<>', '>', '>='), numericOf(cols)).map(([l, op, r]) => `${l}${op}${r}`),
      fc.tuple(textOf(cols), fc.constantFrom('=', '<>'), textOf(cols)).map(([l, op, r]) => `${l}${op}${r}`),
      fc.tuple(tie('c'), fc.constantFrom(' & ', ' | '), tie('c')).map(([l, op, r]) => `(${l})${op}(${r})`),
    ),
  })).c

/** Well-typed expressions over the expression fuzzers' schema. */
export const numericExpression = numericOf(SCHEMA_COLUMNS)
export const textExpression = textOf(SCHEMA_COLUMNS)
export const condition = conditionOf(SCHEMA_COLUMNS)

const attr = (text: string): string => `"${text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;')}"`

/** A macro pipeline over pub.t: selections, computed columns (each a new name), and a tabulation. */
export const validPipeline: fc.Arbitrary<string> = fc
  .tuple(
    fc.array(
      fc.oneof(
        conditionOf(PUB_T_COLUMNS).map((c) => ({ sel: c })),
        fc.oneof(numericOf(PUB_T_COLUMNS), textOf(PUB_T_COLUMNS)).map((e) => ({ willbe: e })),
      ),
      { maxLength: 5 },
    ),
    fc.option(fc.tuple(fc.constantFrom('state', 'date', 'a'), fc.constantFrom('sum', 'cnt', 'max', 'avg')), { nil: null }),
  )
  .map(([ops, tabu]) => {
    const body = ops.map((op, i) => ('sel' in op ? `<sel value=${attr(op.sel)}/>` : `<willbe name="w${i}" value=${attr(op.willbe)}/>`)).join('')
    const tail = tabu === null ? '' : `<tabu breaks="${tabu[0]}"><tcol source="b" fun="${tabu[1]}" name="t"/></tabu>`
    return `<base table="pub.t"/>${body}${tail}`
  })

/** A read-only select over one or two tables by dotted path. */
export const validSql: fc.Arbitrary<string> = fc
  .tuple(
    fc.subarray(['a', 'b', 'state', 'count(*) n', 'sum(b) s', "a || 'x' ax"], { minLength: 1 }),
    fc.constantFrom('pub.t', 'pub.demo.retail.item', '"pub.u"', 'pub.t t join pub.u u on u.a = t.a'),
    fc.option(fc.integer({ min: -5, max: 100 }), { nil: null }),
    fc.option(fc.integer({ min: 0, max: 50 }), { nil: null }),
  )
  .map(([cols, from, above, limit]) => {
    const where = above === null ? '' : ` where a > ${above}`
    return `select ${cols.join(', ')} from ${from}${where}${limit === null ? '' : ` limit ${limit}`}`
  })

const segment = fc.stringMatching(/^[a-z][a-z0-9_]{0,8}$/)

/** Paths the gateway serves: endpoints, instances, widgets, tables, with the format suffixes. */
export const validApiPath: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom('v1', 'prime-latest'),
    fc.oneof(
      fc.constantFrom('sql', 'run', 'dbm', 'new/sql', 'new/run', 'new', '!login', '!logout', 'index'),
      fc.integer({ min: 1, max: 1e6 }).map(String),
      fc.tuple(fc.constantFrom('sql', 'run'), fc.constantFrom('!cols', '!rows', '!data', '!head', '!status', '!stop', '!methods')).map(([a, m]) => `${a}/${m}`),
      fc.array(segment, { minLength: 1, maxLength: 4 }).map((parts) => parts.join('.')),
      fc.array(segment, { minLength: 1, maxLength: 3 }).map((parts) => `ls/${parts.join('.')}`),
    ),
    fc.constantFrom('', ':json', ':json.rows', ':json.keyed', ':text', ':html', ':csv'),
  )
  .map(([version, rest, suffix]) => `/${version}/api/${rest}${suffix}`)

/** A Cookie header carrying one well-formed session value among other cookies. */
export const validSessionCookie: fc.Arbitrary<string> = fc
  .tuple(
    fc.stringMatching(/^[a-z][a-z0-9_]{0,12}$/),
    fc.bigInt({ min: 1n, max: 10n ** 12n }).map(String),
    fc.stringMatching(/^[A-Za-z0-9_-]{16,64}$/),
    fc.array(fc.tuple(fc.stringMatching(/^[a-z]{1,6}$/), fc.stringMatching(/^[a-z0-9]{0,8}$/)), { maxLength: 3 }),
  )
  .map(([uid, sid, epw, others]) => [...others.filter(([n]) => n !== 'session').map(([n, v]) => `${n}=${v}`), `session=${uid}|${sid}|${epw}`].join('; '))
