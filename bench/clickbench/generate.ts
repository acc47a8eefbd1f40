/**
 * A synthetic `hits` table with ClickBench's 105 columns (upstream/schema.ts), tabula's own
 * generator (nothing of ClickBench's data or code): a web-analytics log of July 2013 whose
 * distributions have the shapes ClickBench's queries meet in the real one:
 *
 * - users heavily repeated: UserID drawn Zipf-like (density ∝ 1/rank) from rows/8 users, and a
 *   user's region, screen, phone and IP mostly follow the user;
 * - CounterID Zipf-like over 5,000 counters, 62 the most frequent (~12% of rows), so the queries
 *   filtering CounterID = 62 find a realistic slice;
 * - SearchPhrase empty on ~87% of rows, else Zipf-like over up to 500,000 phrases (SearchEngineID
 *   set where a phrase is); URL, Title and Referer Zipf-like over rows/10 values (100,000 to
 *   1,000,000 at 1M to 10M rows; Title follows the URL), Referer empty on 40% of rows; MobilePhoneModel
 *   empty on 90%;
 * - 64-bit ids (WatchID, UserID, URLHash, RefererHash, FUniqID) hashes spread over the whole
 *   signed 64-bit range; the three constants ClickBench's queries look up (UserID
 *   435090932899640449, RefererHash 3594120000172545465, URLHash 2868770270353813622) given to a
 *   frequent user, referer and URL;
 * - EventTime seconds since 1970 (UTC) in July 2013, EventDate its day.
 *
 * Text is ASCII, lower case in URLs and Referers (so `LIKE '%google%'` means the same in SQLite,
 * which folds ASCII case, and DuckDB, which does not), 'Google' only capitalised in titles. Every
 * Referer is `http[s]://[www.]host/path`, so ClickBench's two forms of Q29 (a regexp for DuckDB,
 * instr/substr for SQLite) find the same host. Rows are in no particular order (ClickBench's file
 * is sorted by its primary key; ours is not, which gives no engine zone maps to lean on).
 *
 * Columns are written straight into typed arrays (text as dictionary codes into a sorted
 * dictionary, '' at code 0 as tabula stores it), each value a hash of (seed, column, row) or of a
 * row's latent draws, so the same seed gives the same table and a smaller table is not a prefix
 * of a larger one only where a pool's size follows the row count.
 */
import type { ColumnSpec, ColumnType } from '../../shared/table.js'
import type { BenchColumnValues, BenchTable } from '../data.js'
import { hash3, unit } from '../suite/random.js'
import { HITS_COLUMNS, type HitsColumn } from './upstream/schema.js'

export const HITS_PATH = 'pub.clickbench.hits'
export const HITS_NAME = 'hits'
export const DEFAULT_SEED = 20_130_701

/** The constants ClickBench's Q20, Q41 and Q42 look up. */
export const QUERY_USER_ID = 435090932899640449n
export const QUERY_REFERER_HASH = 3594120000172545465n
export const QUERY_URL_HASH = 2868770270353813622n

/** 2013-07-01 00:00:00 UTC in seconds. */
const JULY_1 = Date.UTC(2013, 6, 1) / 1000
const DAYS = 31

/** tabula's type of each ClickBench type: its 16- and 32-bit integers are int, BIGINT bigint, TIMESTAMP int seconds, Date a yyyymmdd date. */
function tabulaType(t: string): ColumnType {
  if (t === 'BIGINT') return 'bigint'
  if (t === 'TEXT' || t === 'CHAR' || t.startsWith('VARCHAR')) return 'text'
  if (t === 'Date') return 'date'
  return 'int'
}

export const HITS_SPECS: readonly ColumnSpec[] = Object.entries(HITS_COLUMNS).map(([name, t]) => ({ name, type: tabulaType(t), label: name }))

/** Zipf-like rank in [0, n): density ∝ 1/(rank+1), from a uniform u in [0, 1). */
const zipf = (u: number, n: number): number => Math.min(n - 1, Math.floor(Math.exp(u * Math.log(n + 1))) - 1)

/** A 64-bit hash of (seed, salt, key) as two 32-bit words, never −2^63 (tabula's N/A). */
function hash64(seed: number, salt: number, key: number, out: Int32Array, at: number): void {
  const lo = hash3(seed, salt, key) | 0
  let hi = hash3(seed ^ 0x5bd1e995, salt + 7919, key) | 0
  if (hi === -0x80000000 && lo === 0) hi = 1
  out[at] = lo
  out[at + 1] = hi
}

const setBig = (out: Int32Array, at: number, v: bigint): void => {
  out[at] = Number(BigInt.asIntN(32, v))
  out[at + 1] = Number(BigInt.asIntN(32, v >> 32n))
}

/** A text pool: the strings of ranks 0..n-1 (duplicates allowed) encoded once into a sorted dictionary. */
class TextPool {
  readonly dict: string[]
  /** The dictionary code of each rank. */
  readonly code: Int32Array
  constructor(n: number, make: (rank: number) => string) {
    const values = Array.from({ length: n }, (_, r) => make(r))
    this.dict = ['', ...[...new Set(values)].filter((s) => s !== '').sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))]
    const index = new Map(this.dict.map((s, i) => [s, i]))
    this.code = Int32Array.from(values, (s) => index.get(s)!)
  }
}

const WORDS = (
  'news weather sport video music games cars auto home garden travel hotel flight cheap buy sale ' +
  'photo free online download movie film series book books shop store price review best top new ' +
  'city map maps job jobs work school kids health food recipe recipes cook love dating chat forum ' +
  'blog mail search wiki phone mobile tablet laptop computer tv radio bank credit loan insurance ' +
  'house rent flat apartment moscow london paris berlin russia world time day night summer winter ' +
  'red blue green black white fast easy how what where when why online2 live stream football hockey'
).split(' ')

const word = (h: number): string => WORDS[h % WORDS.length]
const cap = (s: string): string => s[0].toUpperCase() + s.slice(1)

const SITE_SUFFIX = ['.ru', '.com', '.net', '.org', '.info', '.ua', '.by', '.kz']
const site = (h: number): string => `${word(h)}${word(h >>> 7)}${(h >>> 14) % 97}${SITE_SUFFIX[(h >>> 21) % SITE_SUFFIX.length]}`
const GOOGLE_HOSTS = ['www.google.com', 'google.ru', 'maps.google.com', 'news.google.ru', 'mail.google.com']

/** All pools of a table of `rows` rows. */
function pools(rows: number, seed: number) {
  const urls = Math.max(1000, Math.min(1_000_000, Math.floor(rows / 10)))
  const referers = Math.max(1000, Math.min(1_000_000, Math.floor(rows / 10)))
  const phrases = Math.max(1000, Math.min(500_000, Math.floor(rows / 20)))
  const titles = Math.max(500, Math.floor(urls / 2))
  const h = (salt: number, r: number) => hash3(seed, salt, r)
  const url = new TextPool(urls, (r) => {
    if (r % 997 === 13) return ''
    const x = h(101, r)
    // About 2% of pages are Google's; their URLs hold 'google' and '.google.'.
    const host = x % 50 === 0 ? GOOGLE_HOSTS[(x >>> 8) % GOOGLE_HOSTS.length] : site(h(102, r % 20_000))
    const query = x % 3 === 0 ? `?id=${x % 100_000}&q=${word(x >>> 4)}` : ''
    return `http://${host}/${word(x >>> 3)}/${word(x >>> 11)}-${r}.html${query}`
  })
  const title = new TextPool(titles, (r) => {
    if (r % 331 === 7) return ''
    const x = h(103, r)
    const words = [word(x), word(x >>> 6), word(x >>> 12), word(x >>> 18)].slice(0, 2 + (x % 3)).map(cap)
    // Some titles name Google on other sites too (Q23: Title LIKE '%Google%' AND URL NOT LIKE '%.google.%').
    if (x % 40 === 0) words.push('Google')
    return `${words.join(' ')} - ${cap(word(x >>> 24))} ${r % 1000}`
  })
  const referer = new TextPool(referers, (r) => {
    const x = h(104, r)
    const scheme = x % 4 === 0 ? 'https' : 'http'
    const www = x % 3 === 0 ? 'www.' : ''
    const host = x % 30 === 0 ? GOOGLE_HOSTS[(x >>> 8) % GOOGLE_HOSTS.length] : site(h(105, zipf(unit(seed, 106, r), 3000)))
    return `${scheme}://${www}${host}/${x % 5 === 0 ? '' : `${word(x >>> 5)}/${r}`}`
  })
  const phrase = new TextPool(phrases, (r) => {
    const x = h(107, r)
    const n = 1 + (x % 4)
    return [word(x >>> 2), word(x >>> 8), word(x >>> 14), `${(x >>> 20) % 1000}`].slice(0, n).join(' ')
  })
  const models = new TextPool(200, (r) =>
    r < 6 ? ['iPad', 'iPhone', 'GT-I9300', 'GT-I9100', 'HTC One', 'Nexus 4'][r] : `Model-${String.fromCharCode(65 + (r % 26))}${r}`,
  )
  return { url, title, referer, phrase, models, titles }
}

/** Small text columns: a few values, mostly one of them or empty. */
const SMALL_TEXT: Partial<Record<HitsColumn, { readonly empty: number; readonly values: readonly string[] }>> = {
  FlashMinor2: { empty: 0.7, values: ['0', '1', '2', '3', '5', '8', '11', '12'] },
  UserAgentMinor: { empty: 0.2, values: ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'a', 'b', 'D1', 'B2'] },
  Params: { empty: 0.9, values: ['a=1', 'b=2', 'c=3', 'ref=mail', 'utm=1', 'p=2&x=1'] },
  PageCharset: { empty: 0.3, values: ['utf-8', 'windows-1251', 'koi8-r', 'iso-8859-1'] },
  OriginalURL: { empty: 0.95, values: ['http://m.example.ru/', 'http://a.example.com/x', 'http://b.example.net/y'] },
  HitColor: { empty: 0, values: ['E', 'F', 'T', 'D'] },
  BrowserLanguage: { empty: 0.05, values: ['ru', 'en', 'uk', 'de', 'tr', 'kk', 'be', 'fr'] },
  BrowserCountry: { empty: 0.05, values: ['ru', 'ua', 'by', 'kz', 'de', 'us', 'tr', 'gb'] },
  SocialNetwork: { empty: 0.97, values: ['vkontakte', 'facebook', 'twitter', 'odnoklassniki'] },
  SocialAction: { empty: 0.98, values: ['like', 'share', 'comment'] },
  SocialSourcePage: { empty: 0.97, values: ['/feed', '/wall', '/groups', '/page'] },
  ParamOrderID: { empty: 0.99, values: ['o-1', 'o-2', 'o-3', 'o-4', 'o-5'] },
  ParamCurrency: { empty: 0.98, values: ['RUB', 'USD', 'EUR'] },
  OpenstatServiceName: { empty: 0.98, values: ['direct', 'begun', 'market'] },
  OpenstatCampaignID: { empty: 0.98, values: ['c1', 'c2', 'c3', 'c4'] },
  OpenstatAdID: { empty: 0.98, values: ['ad1', 'ad2', 'ad3'] },
  OpenstatSourceID: { empty: 0.98, values: ['s1', 's2', 's3'] },
  UTMSource: { empty: 0.95, values: ['yandex', 'google', 'vk', 'mail', 'facebook'] },
  UTMMedium: { empty: 0.95, values: ['cpc', 'email', 'banner', 'social'] },
  UTMCampaign: { empty: 0.96, values: ['summer', 'sale', 'brand', 'july'] },
  UTMContent: { empty: 0.97, values: ['top', 'side', 'bottom'] },
  UTMTerm: { empty: 0.97, values: ['buy', 'cheap', 'news'] },
  FromTag: { empty: 0.97, values: ['tag1', 'tag2', 'tag3'] },
}

const WIDTHS = [1920, 1366, 1280, 1024, 1440, 1600, 1680, 1280, 1366, 800, 1536, 360, 320, 768, 2560]
const HEIGHTS = [1080, 768, 1024, 768, 900, 900, 1050, 800, 768, 600, 864, 640, 480, 1024, 1440]

/** The hits table of `rows` rows. */
export function makeHits(rows: number, seed = DEFAULT_SEED): BenchTable {
  const p = pools(rows, seed)
  const users = Math.max(100, Math.floor(rows / 8))
  // Latent draws per row, read by several columns.
  const user = new Int32Array(rows)
  const counter = new Int32Array(rows)
  const urlRank = new Int32Array(rows)
  const refRank = new Int32Array(rows)
  const phraseRank = new Int32Array(rows)
  const time = new Int32Array(rows)
  for (let r = 0; r < rows; r++) {
    user[r] = zipf(unit(seed, 1, r), users)
    const c = zipf(unit(seed, 2, r), 5000)
    counter[r] = c === 0 ? 62 : c === 62 ? 5000 : c
    urlRank[r] = zipf(unit(seed, 3, r), p.url.code.length)
    refRank[r] = unit(seed, 4, r) < 0.4 ? -1 : zipf(unit(seed, 5, r), p.referer.code.length)
    phraseRank[r] = unit(seed, 6, r) < 0.87 ? -1 : zipf(unit(seed, 7, r), p.phrase.code.length)
    time[r] = JULY_1 + Math.floor(unit(seed, 8, r) * DAYS * 86_400)
  }
  const day = new Int32Array(DAYS)
  for (let d = 0; d < DAYS; d++) day[d] = 20130701 + d
  /** A per-user value: mostly the user's, sometimes the row's own. */
  const perUser = (salt: number, r: number, own: number): number => hash3(seed, salt, unit(seed, salt + 1, r) < own ? users + r : user[r])

  const ints = (f: (r: number) => number): Int32Array => {
    const out = new Int32Array(rows)
    for (let r = 0; r < rows; r++) out[r] = f(r)
    return out
  }
  const bigs = (f: (r: number, out: Int32Array, at: number) => void): BigInt64Array => {
    const out = new BigInt64Array(rows)
    const words = new Int32Array(out.buffer)
    for (let r = 0; r < rows; r++) f(r, words, 2 * r)
    return out
  }
  const text = (dict: string[], f: (r: number) => number) => ({ codes: ints(f), dict })
  const small = (salt: number, n: number, zero: number): Int32Array => ints((r) => (unit(seed, salt, r) < zero ? 0 : 1 + zipf(unit(seed, salt + 1, r), n)))
  const flag = (salt: number, share: number): Int32Array => ints((r) => (unit(seed, salt, r) < share ? 1 : 0))

  const col = (name: HitsColumn, salt: number): BenchColumnValues => {
    switch (name) {
      case 'WatchID':
        return bigs((r, o, at) => hash64(seed, 20, r, o, at))
      case 'UserID':
        return bigs((r, o, at) => (user[r] === 37 ? setBig(o, at, QUERY_USER_ID) : hash64(seed, 21, user[r], o, at)))
      case 'URLHash':
        return bigs((r, o, at) => (urlRank[r] === 5 ? setBig(o, at, QUERY_URL_HASH) : hash64(seed, 22, urlRank[r], o, at)))
      case 'RefererHash':
        return bigs((r, o, at) => (refRank[r] === 3 ? setBig(o, at, QUERY_REFERER_HASH) : hash64(seed, 23, refRank[r] + 1, o, at)))
      case 'FUniqID':
        return bigs((r, o, at) => (unit(seed, salt, r) < 0.5 ? undefined : hash64(seed, 24, user[r], o, at)))
      case 'ParamPrice':
        return bigs((r, o, at) => {
          if (unit(seed, salt, r) < 0.98) return
          o[at] = hash3(seed, salt + 1, r) % 100_000
        })
      case 'CounterID':
        return counter
      case 'EventTime':
        return time
      case 'ClientEventTime':
        return ints((r) => time[r] + ((hash3(seed, salt, user[r]) % 7) - 3) * 3600 + (hash3(seed, salt + 1, r) % 60))
      case 'LocalEventTime':
        return ints((r) => time[r] + ((hash3(seed, salt, user[r]) % 5) - 1) * 3600)
      case 'EventDate':
        return ints((r) => day[Math.floor((time[r] - JULY_1) / 86_400)])
      case 'ClientIP':
      case 'RemoteIP': {
        // A user's address mostly; kept away from the int32 ends, where ClientIP - 3 would leave 32 bits.
        return ints((r) => {
          const v = perUser(salt, r, 0.1) | 0
          return v < -2_147_483_000 ? v + 1000 : v
        })
      }
      case 'RegionID':
        return ints((r) => 1 + zipf(unit(seed, salt, unit(seed, salt + 1, r) < 0.05 ? users + r : user[r]), 3000))
      case 'Title':
        return text(p.title.dict, (r) => p.title.code[hash3(seed, 30, urlRank[r]) % p.titles])
      case 'URL':
        return text(p.url.dict, (r) => p.url.code[urlRank[r]])
      case 'Referer':
        return text(p.referer.dict, (r) => (refRank[r] < 0 ? 0 : p.referer.code[refRank[r]]))
      case 'SearchPhrase':
        return text(p.phrase.dict, (r) => (phraseRank[r] < 0 ? 0 : p.phrase.code[phraseRank[r]]))
      case 'SearchEngineID':
        return ints((r) => (phraseRank[r] >= 0 ? 1 + zipf(unit(seed, salt, r), 40) : unit(seed, salt, r) < 0.03 ? 1 + (hash3(seed, salt + 1, r) % 5) : 0))
      case 'AdvEngineID':
        return ints((r) => (unit(seed, salt, r) < 0.97 ? 0 : 1 + zipf(unit(seed, salt + 1, r), 30)))
      case 'MobilePhoneModel':
        return text(p.models.dict, (r) => (unit(seed, 50, user[r]) < 0.9 ? 0 : p.models.code[zipf(unit(seed, 51, user[r]), 200)]))
      case 'MobilePhone':
        return ints((r) => (unit(seed, 50, user[r]) < 0.9 ? 0 : 1 + (zipf(unit(seed, 51, user[r]), 200) % 12)))
      case 'IsMobile':
        return ints((r) => (unit(seed, 50, user[r]) < 0.9 ? 0 : 1))
      case 'ResolutionWidth':
        return ints((r) => WIDTHS[perUser(40, r, 0.05) % WIDTHS.length])
      case 'ResolutionHeight':
        return ints((r) => HEIGHTS[perUser(40, r, 0.05) % HEIGHTS.length])
      case 'WindowClientWidth':
        return ints((r) => Math.max(0, WIDTHS[perUser(40, r, 0.05) % WIDTHS.length] - (hash3(seed, salt, r) % 300)))
      case 'WindowClientHeight':
        return ints((r) => Math.max(0, HEIGHTS[perUser(40, r, 0.05) % HEIGHTS.length] - (hash3(seed, salt, r) % 300)))
      case 'TraficSourceID':
        return ints((r) => [0, 1, -1, 2, 3, 6, 4, 5, 7, 8, 9][zipf(unit(seed, salt, r), 11)])
      case 'IsRefresh':
        return flag(salt, 0.1)
      case 'DontCountHits':
        return flag(salt, 0.05)
      case 'IsLink':
        return flag(salt, 0.05)
      case 'IsDownload':
        return flag(salt, 0.02)
      case 'IsNotBounce':
        return flag(salt, 0.3)
      case 'IsArtifical':
        return flag(salt, 0.01)
      case 'IsOldCounter':
      case 'IsEvent':
      case 'IsParameter':
      case 'WithHash':
      case 'HasGCLID':
        return flag(salt, 0.02)
      case 'JavaEnable':
      case 'CookieEnable':
      case 'JavascriptEnable':
      case 'GoodEvent':
        return flag(salt, 0.9)
      case 'OS':
      case 'UserAgent':
        return ints((r) => 1 + zipf(unit(seed, salt, user[r]), 100))
      case 'UserAgentMajor':
        return ints((r) => zipf(unit(seed, salt, user[r]), 40))
      case 'ClientTimeZone':
        return ints((r) => (hash3(seed, salt, user[r]) % 25) - 12)
      case 'RefererRegionID':
      case 'URLRegionID':
        return ints((r) => zipf(unit(seed, salt, r), 3000))
      case 'HID':
      case 'IPNetworkID':
      case 'CodeVersion':
      case 'CLID':
        return ints((r) => (unit(seed, salt, r) < 0.3 ? 0 : hash3(seed, salt + 1, r) % 1_000_000))
      case 'SendTiming':
      case 'DNSTiming':
      case 'ConnectTiming':
      case 'ResponseStartTiming':
      case 'ResponseEndTiming':
      case 'FetchTiming':
        return ints((r) => (unit(seed, salt, r) < 0.6 ? 0 : zipf(unit(seed, salt + 1, r), 20_000)))
      case 'WindowName':
      case 'OpenerName':
        return ints((r) => (unit(seed, salt, r) < 0.8 ? -1 : hash3(seed, salt + 1, r) % 100_000))
      case 'Age':
        return ints((r) => [0, 1, 2, 3, 4, 5, 6][hash3(seed, salt, user[r]) % 7] * (hash3(seed, salt, user[r]) % 3 === 0 ? 0 : 1))
      case 'Sex':
        return ints((r) => hash3(seed, salt, user[r]) % 3)
      case 'Income':
        return ints((r) => hash3(seed, salt, user[r]) % 5)
      case 'Interests':
        return ints((r) => (unit(seed, salt, user[r]) < 0.5 ? 0 : hash3(seed, salt + 1, user[r]) % 30_000))
      case 'Robotness':
        return ints((r) => (unit(seed, salt, r) < 0.95 ? 0 : 1 + (hash3(seed, salt + 1, r) % 30)))
      case 'HistoryLength':
        return ints((r) => zipf(unit(seed, salt, r), 100))
      case 'HTTPError':
        return ints((r) => (unit(seed, salt, r) < 0.99 ? 0 : [404, 500, 403, 502][hash3(seed, salt + 1, r) % 4]))
      default: {
        const t = SMALL_TEXT[name]
        if (t) {
          const dict = ['', ...[...t.values].sort()]
          return text(dict, (r) => (unit(seed, salt, r) < t.empty ? 0 : 1 + zipf(unit(seed, salt + 1, r), t.values.length)))
        }
        // The remaining small integers: flash and browser versions, categories, resolution depth, ids.
        return small(salt, 30, 0.3)
      }
    }
  }
  const data = HITS_SPECS.map((spec, i) => col(spec.name as HitsColumn, 1000 + i * 2))
  return { name: HITS_NAME, path: HITS_PATH, title: 'hits (synthetic, ClickBench schema)', rows, columns: HITS_SPECS, data }
}
