/**
 * ClickBench's 43 queries as the benchmark runs them, each in three forms over the same table:
 *
 * - `sql`: DuckDB's form (upstream/queries.ts DUCKDB_QUERIES), for DuckDB, over `hits`;
 * - `sqlite`: SQLite's form (SQLITE_QUERIES), for tabula's `api/sql`, over `pub.clickbench.hits`;
 * - `xml`: the same question in the macro language, for `api/run` and the worker pool (ours).
 *
 * Changes to ClickBench's text, all made here by replacements that must match (so the upstream
 * file stays verbatim and every change is listed):
 *
 * - the table's name; EventDate is a yyyymmdd integer (tabula's date), so `'2013-07-01'` is
 *   `20130701`; EventTime is seconds since 1970 UTC (an int in both systems), so Q19's
 *   `extract(minute FROM EventTime)` is `EventTime % 3600 / 60` (`//` in DuckDB, whose `/` is
 *   real division) and Q43's `DATE_TRUNC('minute', EventTime)` is `EventTime - EventTime % 60`
 *   in both (SQLite's form of Q43 groups by `strftime('%M', …)`, minute of the hour, which is
 *   another question: the DuckDB meaning is kept);
 * - ties: ClickBench's `ORDER BY c DESC LIMIT 10` leaves the rows chosen among equal counts to
 *   the engine, so no two engines need give the same answer. Each ORDER BY gets the group keys
 *   after its own keys (`ORDER BY c DESC, SearchPhrase NULLS FIRST`), in every form, so the
 *   answer is one and can be checked. Q18 (`LIMIT 10` without ORDER BY: any ten groups) is
 *   checked on its row count and column kinds only;
 * - `HAVING COUNT(*) > 100000` (Q28, Q29) is scaled to the table: 100,000 of ClickBench's ~100M
 *   rows is 0.1%, so the threshold is rows / 1000.
 */
import { QUERY_REFERER_HASH, QUERY_URL_HASH, QUERY_USER_ID, HITS_PATH } from './generate.js'
import { DUCKDB_QUERIES, SQLITE_QUERIES } from './upstream/queries.js'

export interface ClickQuestion {
  /** Q1 … Q43. */
  readonly name: string
  readonly title: string
  /** DuckDB's form. */
  readonly sql: string
  /** tabula's api/sql form (SQLite's dialect). */
  readonly sqlite: string
  /** tabula's api/run form. */
  readonly xml: string
  /** Answer columns whose order is part of the answer, as `#n` (the n-th column). */
  readonly orderKeys: readonly string[]
  /** Any rows of the right shape are right (LIMIT without ORDER BY). */
  readonly anyRows?: true
}

const BASE = `<base table="${HITS_PATH}"/>`

/** `s` with each [from, to] replaced once; a `from` that is not in `s` is an error (the upstream text changed). */
function edit(s: string, ...pairs: readonly (readonly [string, string])[]): string {
  let out = s
  for (const [from, to] of pairs) {
    if (!out.includes(from)) throw new Error(`ClickBench query changed: "${from}" not in ${s}`)
    out = out.replace(from, to)
  }
  return out
}

const DATES: readonly (readonly [string, string])[] = [
  ["EventDate >= '2013-07-01' AND EventDate <= '2013-07-31'", 'EventDate >= 20130701 AND EventDate <= 20130731'],
  ["EventDate >= '2013-07-14' AND EventDate <= '2013-07-15'", 'EventDate >= 20130714 AND EventDate <= 20130715'],
]

/** Attribute text of an expression: `<`, `&` and `"` escaped. */
const x = (s: string): string => s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('"', '&quot;')
const sel = (v: string): string => `<sel value="${x(v)}"/>`
const willbe = (name: string, v: string): string => `<willbe name="${name}" value="${x(v)}"/>`
const tabu = (breaks: readonly string[], tcols: string): string =>
  `<tabu breaks="${breaks.join(',')}">${breaks.map((b) => `<break col="${b}"/>`).join('')}${tcols}</tabu>`
const tcol = (fun: string, source?: string, name?: string): string =>
  `<tcol fun="${fun}"${source ? ` source="${source}"` : ''}${name ? ` name="${name}"` : ''}/>`
/**
 * Rows ordered by `keys` (`-` first: descending), then rows `from`..`to` (1-based): stable sorts
 * from the last key to the first, so the first key decides.
 */
const orderRows = (keys: readonly string[], to: number, from = 1): string =>
  [...keys]
    .reverse()
    .map((k) => (k.startsWith('-') ? `<sort col="${k.slice(1)}" dir="down"/>` : `<sort col="${k}"/>`))
    .join('') + (from === 1 ? sel(`i_()<=${to}`) : sel(`between(i_();${from};${to})`))
const onlyCols = (cols: readonly string[]): string => `<colord cols="${cols.join(',')}"/>`

const COUNTER_62 = 'CounterID=62 & between(EventDate;20130701;20130731)'

/** The macro form of each question, by number, given the scaled HAVING threshold. */
function macro(n: number, having: number): string {
  switch (n) {
    case 1:
      return tabu([], tcol('cnt'))
    case 2:
      return sel('AdvEngineID<>0') + tabu([], tcol('cnt'))
    case 3:
      return tabu([], tcol('sum', 'AdvEngineID') + tcol('cnt') + tcol('avg', 'ResolutionWidth'))
    case 4:
      return tabu([], tcol('avg', 'UserID'))
    case 5:
      return tabu([], tcol('ucnt', 'UserID'))
    case 6:
      return tabu([], tcol('ucnt', 'SearchPhrase'))
    case 7:
      return tabu([], tcol('min', 'EventDate') + tcol('max', 'EventDate'))
    case 8:
      return sel('AdvEngineID<>0') + tabu(['AdvEngineID'], tcol('cnt', undefined, 'c')) + orderRows(['-c', 'AdvEngineID'], 1e9)
    case 9:
      return tabu(['RegionID'], tcol('ucnt', 'UserID', 'u')) + orderRows(['-u', 'RegionID'], 10)
    case 10:
      return (
        tabu(['RegionID'], tcol('sum', 'AdvEngineID') + tcol('cnt', undefined, 'c') + tcol('avg', 'ResolutionWidth') + tcol('ucnt', 'UserID')) +
        orderRows(['-c', 'RegionID'], 10)
      )
    case 11:
      return sel("MobilePhoneModel<>''") + tabu(['MobilePhoneModel'], tcol('ucnt', 'UserID', 'u')) + orderRows(['-u', 'MobilePhoneModel'], 10)
    case 12:
      return (
        sel("MobilePhoneModel<>''") +
        tabu(['MobilePhone', 'MobilePhoneModel'], tcol('ucnt', 'UserID', 'u')) +
        orderRows(['-u', 'MobilePhone', 'MobilePhoneModel'], 10)
      )
    case 13:
      return sel("SearchPhrase<>''") + tabu(['SearchPhrase'], tcol('cnt', undefined, 'c')) + orderRows(['-c', 'SearchPhrase'], 10)
    case 14:
      return sel("SearchPhrase<>''") + tabu(['SearchPhrase'], tcol('ucnt', 'UserID', 'u')) + orderRows(['-u', 'SearchPhrase'], 10)
    case 15:
      return (
        sel("SearchPhrase<>''") +
        tabu(['SearchEngineID', 'SearchPhrase'], tcol('cnt', undefined, 'c')) +
        orderRows(['-c', 'SearchEngineID', 'SearchPhrase'], 10)
      )
    case 16:
      return tabu(['UserID'], tcol('cnt', undefined, 'c')) + orderRows(['-c', 'UserID'], 10)
    case 17:
      return tabu(['UserID', 'SearchPhrase'], tcol('cnt', undefined, 'c')) + orderRows(['-c', 'UserID', 'SearchPhrase'], 10)
    case 18:
      return tabu(['UserID', 'SearchPhrase'], tcol('cnt', undefined, 'c')) + sel('i_()<=10')
    case 19:
      return (
        willbe('m', 'floor(mod(EventTime;3600)/60)') +
        tabu(['UserID', 'm', 'SearchPhrase'], tcol('cnt', undefined, 'c')) +
        orderRows(['-c', 'UserID', 'm', 'SearchPhrase'], 10)
      )
    case 20:
      return sel(`UserID=${QUERY_USER_ID}`) + onlyCols(['UserID'])
    case 21:
      return sel("contains(URL;'google')") + tabu([], tcol('cnt'))
    case 22:
      return (
        sel("contains(URL;'google') & SearchPhrase<>''") +
        tabu(['SearchPhrase'], tcol('min', 'URL') + tcol('cnt', undefined, 'c')) +
        orderRows(['-c', 'SearchPhrase'], 10)
      )
    case 23:
      return (
        // `~` negates everything to its right, so it goes in parentheses. An empty URL is N/A:
        // `~contains` holds there, where SQL's `NULL NOT LIKE …` is NULL, so URL<>'' says SQL's meaning.
        sel("contains(Title;'Google') & (~contains(URL;'.google.')) & URL<>'' & SearchPhrase<>''") +
        tabu(['SearchPhrase'], tcol('min', 'URL') + tcol('min', 'Title') + tcol('cnt', undefined, 'c') + tcol('ucnt', 'UserID')) +
        orderRows(['-c', 'SearchPhrase'], 10)
      )
    case 24:
      return sel("contains(URL;'google')") + orderRows(['EventTime', 'WatchID'], 10)
    case 25:
    case 27:
      return sel("SearchPhrase<>''") + orderRows(['EventTime', 'SearchPhrase'], 10) + onlyCols(['SearchPhrase'])
    case 26:
      return sel("SearchPhrase<>''") + orderRows(['SearchPhrase'], 10) + onlyCols(['SearchPhrase'])
    case 28:
      return (
        sel("URL<>''") +
        willbe('len', 'strlen(URL)') +
        tabu(['CounterID'], tcol('avg', 'len', 'l') + tcol('cnt', undefined, 'c')) +
        sel(`c>${having}`) +
        orderRows(['-l', 'CounterID'], 25)
      )
    case 29:
      // The host: the third piece of `scheme://host/path` cut at '/', without a leading 'www.'.
      return (
        sel("Referer<>''") +
        willbe('host', "strpick(Referer;'/';3)") +
        willbe('k', "if(beginswith(host;'www.');substr(host;5;1000);host)") +
        willbe('len', 'strlen(Referer)') +
        tabu(['k'], tcol('avg', 'len', 'l') + tcol('cnt', undefined, 'c') + tcol('min', 'Referer')) +
        sel(`c>${having}`) +
        orderRows(['-l', 'k'], 25)
      )
    case 30: {
      const ks = Array.from({ length: 90 }, (_, k) => k)
      return (
        ks
          .slice(1)
          .map((k) => willbe(`r${k}`, `ResolutionWidth+${k}`))
          .join('') + tabu([], ks.map((k) => tcol('sum', k === 0 ? 'ResolutionWidth' : `r${k}`)).join(''))
      )
    }
    case 31:
      return (
        sel("SearchPhrase<>''") +
        tabu(['SearchEngineID', 'ClientIP'], tcol('cnt', undefined, 'c') + tcol('sum', 'IsRefresh') + tcol('avg', 'ResolutionWidth')) +
        orderRows(['-c', 'SearchEngineID', 'ClientIP'], 10)
      )
    case 32:
      return (
        sel("SearchPhrase<>''") +
        tabu(['WatchID', 'ClientIP'], tcol('cnt', undefined, 'c') + tcol('sum', 'IsRefresh') + tcol('avg', 'ResolutionWidth')) +
        orderRows(['-c', 'WatchID', 'ClientIP'], 10)
      )
    case 33:
      return (
        tabu(['WatchID', 'ClientIP'], tcol('cnt', undefined, 'c') + tcol('sum', 'IsRefresh') + tcol('avg', 'ResolutionWidth')) +
        orderRows(['-c', 'WatchID', 'ClientIP'], 10)
      )
    case 34:
      return tabu(['URL'], tcol('cnt', undefined, 'c')) + orderRows(['-c', 'URL'], 10)
    case 35:
      return willbe('one', '1') + tabu(['one', 'URL'], tcol('cnt', undefined, 'c')) + orderRows(['-c', 'URL'], 10)
    case 36:
      return (
        willbe('ip1', 'ClientIP-1') +
        willbe('ip2', 'ClientIP-2') +
        willbe('ip3', 'ClientIP-3') +
        tabu(['ClientIP', 'ip1', 'ip2', 'ip3'], tcol('cnt', undefined, 'c')) +
        orderRows(['-c', 'ClientIP'], 10)
      )
    case 37:
      return (
        sel(`${COUNTER_62} & DontCountHits=0 & IsRefresh=0 & URL<>''`) +
        tabu(['URL'], tcol('cnt', undefined, 'PageViews')) +
        orderRows(['-PageViews', 'URL'], 10)
      )
    case 38:
      return (
        sel(`${COUNTER_62} & DontCountHits=0 & IsRefresh=0 & Title<>''`) +
        tabu(['Title'], tcol('cnt', undefined, 'PageViews')) +
        orderRows(['-PageViews', 'Title'], 10)
      )
    case 39:
      return (
        sel(`${COUNTER_62} & IsRefresh=0 & IsLink<>0 & IsDownload=0`) +
        tabu(['URL'], tcol('cnt', undefined, 'PageViews')) +
        orderRows(['-PageViews', 'URL'], 1010, 1001)
      )
    case 40:
      return (
        sel(`${COUNTER_62} & IsRefresh=0`) +
        willbe('Src', "if(SearchEngineID=0 & AdvEngineID=0;Referer;'')") +
        willbe('Dst', 'URL') +
        tabu(['TraficSourceID', 'SearchEngineID', 'AdvEngineID', 'Src', 'Dst'], tcol('cnt', undefined, 'PageViews')) +
        orderRows(['-PageViews', 'TraficSourceID', 'SearchEngineID', 'AdvEngineID', 'Src', 'Dst'], 1010, 1001)
      )
    case 41:
      return (
        sel(`${COUNTER_62} & IsRefresh=0 & (TraficSourceID=-1 | TraficSourceID=6) & RefererHash=${QUERY_REFERER_HASH}`) +
        tabu(['URLHash', 'EventDate'], tcol('cnt', undefined, 'PageViews')) +
        orderRows(['-PageViews', 'URLHash', 'EventDate'], 110, 101)
      )
    case 42:
      return (
        sel(`${COUNTER_62} & IsRefresh=0 & DontCountHits=0 & URLHash=${QUERY_URL_HASH}`) +
        tabu(['WindowClientWidth', 'WindowClientHeight'], tcol('cnt', undefined, 'PageViews')) +
        orderRows(['-PageViews', 'WindowClientWidth', 'WindowClientHeight'], 10010, 10001)
      )
    case 43:
      return (
        sel('CounterID=62 & between(EventDate;20130714;20130715) & IsRefresh=0 & DontCountHits=0') +
        willbe('M', 'EventTime-mod(EventTime;60)') +
        tabu(['M'], tcol('cnt', undefined, 'PageViews')) +
        orderRows(['M'], 1010, 1001)
      )
  }
  throw new Error(`no query ${n}`)
}

/**
 * The SQL changes of each question beyond the table's name and the dates: the tie-breaking keys
 * appended to ORDER BY (both dialects), and dialect edits.
 */
interface SqlEdits {
  /** Text appended to the ORDER BY list, e.g. `, SearchPhrase NULLS FIRST`. */
  readonly ties?: readonly [string, string]
  readonly duck?: readonly (readonly [string, string])[]
  readonly lite?: readonly (readonly [string, string])[]
  readonly orderKeys?: readonly string[]
  readonly anyRows?: true
}

const tie = (at: string, keys: string): readonly [string, string] => [at, `${at}, ${keys}`]
const nf = (...keys: string[]): string => keys.map((k) => `${k} NULLS FIRST`).join(', ')

function sqlEdits(n: number, having: number): SqlEdits {
  const scaled: readonly [string, string] = ['HAVING COUNT(*) > 100000', `HAVING COUNT(*) > ${having}`]
  switch (n) {
    case 8:
      return { ties: tie('ORDER BY COUNT(*) DESC', nf('AdvEngineID')), orderKeys: ['#1', '#2'] }
    case 9:
      return { ties: tie('ORDER BY u DESC', nf('RegionID')), orderKeys: ['#1', '#2'] }
    case 10:
      return { ties: tie('ORDER BY c DESC', nf('RegionID')), orderKeys: ['#1', '#3'] }
    case 11:
      return { ties: tie('ORDER BY u DESC', nf('MobilePhoneModel')), orderKeys: ['#1', '#2'] }
    case 12:
      return { ties: tie('ORDER BY u DESC', nf('MobilePhone', 'MobilePhoneModel')), orderKeys: ['#1', '#2', '#3'] }
    case 13:
      return { ties: tie('ORDER BY c DESC', nf('SearchPhrase')), orderKeys: ['#1', '#2'] }
    case 14:
      return { ties: tie('ORDER BY u DESC', nf('SearchPhrase')), orderKeys: ['#1', '#2'] }
    case 15:
      return { ties: tie('ORDER BY c DESC', nf('SearchEngineID', 'SearchPhrase')), orderKeys: ['#1', '#2', '#3'] }
    case 16:
      return { ties: tie('ORDER BY COUNT(*) DESC', nf('UserID')), orderKeys: ['#1', '#2'] }
    case 17:
      return { ties: tie('ORDER BY COUNT(*) DESC', nf('UserID', 'SearchPhrase')), orderKeys: ['#1', '#2', '#3'] }
    case 18:
      return { anyRows: true }
    case 19:
      return {
        ties: tie('ORDER BY COUNT(*) DESC', nf('UserID', 'm', 'SearchPhrase')),
        duck: [['extract(minute FROM EventTime)', 'EventTime % 3600 // 60']],
        lite: [["strftime('%M', EventTime)", 'EventTime % 3600 / 60']],
        orderKeys: ['#1', '#2', '#3', '#4'],
      }
    case 22:
    case 23:
      return { ties: tie('ORDER BY c DESC', nf('SearchPhrase')), orderKeys: ['#1'] }
    case 24:
      return { ties: tie('ORDER BY EventTime', 'WatchID'), orderKeys: ['#1', '#5'] }
    case 25:
      return { ties: tie('ORDER BY EventTime', 'SearchPhrase'), orderKeys: ['#1'] }
    case 26:
    case 27:
      return { orderKeys: ['#1'] }
    case 28:
      return { ties: tie('ORDER BY l DESC', 'CounterID'), duck: [scaled], lite: [scaled], orderKeys: ['#1', '#2'] }
    case 29:
      return { ties: tie('ORDER BY l DESC', 'k'), duck: [scaled], lite: [scaled], orderKeys: ['#1', '#2'] }
    case 31:
      return { ties: tie('ORDER BY c DESC', nf('SearchEngineID', 'ClientIP')), orderKeys: ['#1', '#2', '#3'] }
    case 32:
    case 33:
      return { ties: tie('ORDER BY c DESC', nf('WatchID', 'ClientIP')), orderKeys: ['#1', '#2', '#3'] }
    case 34:
      return { ties: tie('ORDER BY c DESC', nf('URL')), orderKeys: ['#1', '#2'] }
    case 35:
      return { ties: tie('ORDER BY c DESC', nf('URL')), orderKeys: ['#2', '#3'] }
    case 36:
      return { ties: tie('ORDER BY c DESC', nf('ClientIP')), orderKeys: ['#1', '#5'] }
    case 37:
      return { ties: tie('ORDER BY PageViews DESC', nf('URL')), orderKeys: ['#1', '#2'] }
    case 38:
      return { ties: tie('ORDER BY PageViews DESC', nf('Title')), orderKeys: ['#1', '#2'] }
    case 39:
      return { ties: tie('ORDER BY PageViews DESC', nf('URL')), orderKeys: ['#1', '#2'] }
    case 40:
      return { ties: tie('ORDER BY PageViews DESC', nf('TraficSourceID', 'SearchEngineID', 'AdvEngineID', 'Src', 'Dst')), orderKeys: ['#1', '#4', '#5', '#6'] }
    case 41:
      return { ties: tie('ORDER BY PageViews DESC', nf('URLHash', 'EventDate')), orderKeys: ['#1', '#2', '#3'] }
    case 42:
      return { ties: tie('ORDER BY PageViews DESC', nf('WindowClientWidth', 'WindowClientHeight')), orderKeys: ['#1', '#2', '#3'] }
    case 43: {
      const minute = 'EventTime - EventTime % 60'
      return {
        duck: [
          ["DATE_TRUNC('minute', EventTime)", minute],
          ["DATE_TRUNC('minute', EventTime)", minute],
          ["DATE_TRUNC('minute', EventTime)", minute],
        ],
        lite: [
          ["strftime('%M', EventTime)", minute],
          ["strftime('%M', EventTime)", minute],
          ["strftime('%M', EventTime)", minute],
        ],
        orderKeys: ['#1', '#2'],
      }
    }
    default:
      return {}
  }
}

const TITLE_LENGTH = 90

/** The 43 questions over a table of `rows` rows (the HAVING thresholds follow the row count). */
export function clickQuestions(rows: number): ClickQuestion[] {
  const having = Math.max(1, Math.round(rows / 1000))
  return DUCKDB_QUERIES.map((duckText, i) => {
    const n = i + 1
    const e = sqlEdits(n, having)
    const common = [...DATES.filter(([from]) => duckText.includes(from)), ...(e.ties ? [e.ties] : [])]
    const sql = edit(duckText, ...(e.duck ?? []), ...common)
    const sqlite = edit(SQLITE_QUERIES[i], ...(e.lite ?? []), ...common, [' FROM hits', ` FROM ${HITS_PATH}`])
    return {
      name: `Q${n}`,
      title: duckText.length > TITLE_LENGTH ? `${duckText.slice(0, TITLE_LENGTH - 1)}…` : duckText,
      sql,
      sqlite,
      xml: BASE + macro(n, having),
      orderKeys: e.orderKeys ?? [],
      ...(e.anyRows ? { anyRows: true as const } : {}),
    }
  })
}
