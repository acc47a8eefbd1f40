/**
 * Parsed and checked queries, kept per gateway so that a repeated query is not parsed and
 * checked on every request (nor twice in one: once to prepare, once to run).
 *
 * Every entry is a pure function of its key, so no entry can ever be stale:
 * - a macro query parses to the same operations for the same text and variables;
 * - it checks to the same operations against the same table versions, because a version is
 *   immutable (a changed schema is always a new version, so a new key);
 * - an SQL text passes or fails the read-only guard, and names the same tables, every time.
 * Which version a table name means is never cached: callers resolve names through the catalog on
 * every request. Failures are not cached (they are cheap to repeat and carry the caller's text).
 * A checked entry may be replaced by one with more int operators widened (engine/expr/widening.ts):
 * whether an int overflows is a function of the text and the versions too, so that entry is
 * learned once and stays true for its key.
 *
 * Queries are parsed, guarded, compiled and checked on a compiler thread (compile-thread.ts),
 * never on the gateway's: a large one took up to a second there.
 */
import type { CheckedOps, Compiled, DynamicApp, ParsedQuery } from '../../engine/index.js'
import { checkOffThread, compileSqlOffThread, guardOffThread, parseDynamicOffThread, parseOffThread } from './compile-thread.js'
import type { ColumnSpec } from '../../shared/table.js'
import { ClockCache } from './clock-cache.js'

/** A macro query parsed: its operations and the table paths they name. */
export type ParsedRun = ParsedQuery

/** A table a query reads, as the check needs it. */
export interface CheckedTable {
  readonly path: string
  readonly version: string
  readonly columns: readonly ColumnSpec[]
}

/** Entries per kind by default: queries are small, and a gateway sees a limited set of them. */
/**
 * Memory budget of each kind of entry. Bounded in bytes, not entries: a query text may be up to
 * MAX_QUERY_BYTES, and a count bound would let a few thousand large ones take gigabytes.
 */
export const DEFAULT_COMPILED_BYTES = 16 * 1024 * 1024

/**
 * What an entry is charged: its key (UTF-16) and a generous allowance for the parsed operations,
 * whose objects take several times the text they came from, plus a fixed overhead.
 */
export const compiledEntryBytes = (key: string): number => 1024 + 16 * key.length

/** A byte-bounded cache (clock-cache.ts) whose entries are charged by their key. */
class KeyedCache<V> {
  readonly #cache: ClockCache<V>
  constructor(maxBytes: number) {
    this.#cache = new ClockCache<V>(maxBytes, (_value, key) => compiledEntryBytes(key))
  }
  get size(): number {
    return this.#cache.count
  }
  get(key: string): V | undefined {
    return this.#cache.get(key)
  }
  set(key: string, value: V): void {
    this.#cache.set(key, value)
  }
}

export class CompiledQueries {
  readonly #parsed: KeyedCache<ParsedRun>
  readonly #checked: KeyedCache<CheckedRun>
  readonly #sqlTables: KeyedCache<readonly string[]>
  readonly #sqlCompiled: KeyedCache<Compiled>
  readonly #dynamic: KeyedCache<DynamicApp | null>

  constructor(maxBytesPerKind = DEFAULT_COMPILED_BYTES) {
    this.#parsed = new KeyedCache(maxBytesPerKind)
    this.#checked = new KeyedCache(maxBytesPerKind)
    this.#sqlTables = new KeyedCache(maxBytesPerKind)
    this.#sqlCompiled = new KeyedCache(maxBytesPerKind)
    this.#dynamic = new KeyedCache(maxBytesPerKind)
  }

  /** Entries held, per kind (for tests and diagnostics). */
  get sizes(): { parsed: number; checked: number; sql: number } {
    return { parsed: this.#parsed.size, checked: this.#checked.size, sql: this.#sqlTables.size }
  }

  /**
   * A dynamic query's app (variables, widgets, dos), or null when the text holds no <dynamic>;
   * throws what parseDynamic throws. Every request to a dynamic instance reads it.
   */
  async dynamicApp(xml: string): Promise<DynamicApp | null> {
    // A text without the tag cannot hold the element: no parse (most queries).
    if (!xml.includes('<dynamic')) return null
    const hit = this.#dynamic.get(xml)
    if (hit !== undefined) return hit
    const app = await parseDynamicOffThread(xml)
    this.#dynamic.set(xml, app)
    return app
  }

  /** The query's operations and the tables it names; throws what parseMacro throws. */
  async parseRun(xml: string, vars: Readonly<Record<string, string>>): Promise<ParsedRun> {
    const key = runKey(xml, vars)
    const hit = this.#parsed.get(key)
    if (hit) return hit
    const parsed = await parseOffThread(xml, vars)
    this.#parsed.set(key, parsed)
    return parsed
  }

  /**
   * The operations checked against these table versions, ready for a worker; throws what
   * checkMacro throws. `tables` must hold every table the query names.
   */
  async checkRun(xml: string, vars: Readonly<Record<string, string>>, tables: readonly CheckedTable[]): Promise<CheckedOps> {
    return (await this.#checkedRun(xml, vars, tables)).ops
  }

  /**
   * Checks the query again with one more int operator wide (`opKey`, from a run that overflowed
   * on it), and keeps that as the entry for these versions. False when it was already wide, so a
   * caller never retries forever.
   */
  async widenRun(xml: string, vars: Readonly<Record<string, string>>, tables: readonly CheckedTable[], opKey: string): Promise<boolean> {
    const before = await this.#checkedRun(xml, vars, tables)
    if (before.wide.has(opKey)) return false
    const wide = new Set([...before.wide, opKey])
    const checked = await checkOffThread(xml, vars, schemas(tables), [...wide])
    this.#checked.set(checkedKey(xml, vars, tables), { ops: checked, wide })
    return true
  }

  async #checkedRun(xml: string, vars: Readonly<Record<string, string>>, tables: readonly CheckedTable[]): Promise<CheckedRun> {
    const key = checkedKey(xml, vars, tables)
    const hit = this.#checked.get(key)
    if (hit) return hit
    const checked = { ops: await checkOffThread(xml, vars, schemas(tables), []), wide: new Set<string>() }
    this.#checked.set(key, checked)
    return checked
  }

  /**
   * An SQL text compiled to the columnar engine against these table versions and checked, or why
   * it runs on sql.js instead: the engine's answer (compileSql) as it gave it, a pure function of
   * the key. `alias` is the schema sql.js attaches each table as, which SQLite's names for the
   * result's columns may quote, so it is part of the key.
   */
  async compileSql(sql: string, tables: readonly (CheckedTable & { readonly alias: string })[]): Promise<Compiled> {
    const key = `${sql}\n${JSON.stringify(tables.map((t) => [t.path, t.alias, t.version]))}`
    const hit = this.#sqlCompiled.get(key)
    if (hit) return hit
    const compiled = await compileSqlOffThread(
      sql,
      tables.map((t) => ({ path: t.path, alias: t.alias, columns: t.columns })),
    )
    this.#sqlCompiled.set(key, compiled)
    return compiled
  }

  /** The distinct dotted names an SQL text uses, once it passed the read-only guard. */
  async sqlTableNames(sql: string): Promise<readonly string[]> {
    const hit = this.#sqlTables.get(sql)
    if (hit) return hit
    const names = await guardOffThread(sql)
    this.#sqlTables.set(sql, names)
    return names
  }
}

/** A query checked against table versions, and the int operators it computes wide. */
interface CheckedRun {
  readonly ops: CheckedOps
  readonly wide: ReadonlySet<string>
}

/** What the compiler thread needs of the tables: each one's columns. */
const schemas = (tables: readonly CheckedTable[]) => tables.map((t) => ({ path: t.path, columns: t.columns }))

const checkedKey = (xml: string, vars: Readonly<Record<string, string>>, tables: readonly CheckedTable[]): string =>
  `${runKey(xml, vars)}\n${JSON.stringify(tables.map((t) => [t.path, t.version]))}`

/** Text and variables, unambiguously (JSON quotes both). */
const runKey = (xml: string, vars: Readonly<Record<string, string>>): string => JSON.stringify([xml, vars])
