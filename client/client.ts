/**
 * The typed client: one object per service and session.
 *
 * ```ts
 * import { Client } from 'tabula/client'
 * const c = new Client({ baseUrl: 'http://localhost:8080' })
 * await c.login('admin', password)
 * const byStore = await c.sql('select store, count(*) n from pub.demo.retail.item group by store', { format: 'json.rows' })
 * ```
 *
 * Results come in the format asked for (`json`: column-major, the default; `json.rows`;
 * `json.keyed`; `text`), typed accordingly. Every failure is a TabulaError (errors.ts).
 */
import type { DbmReply, ErrorBody, LoginAnswer, NewInstanceAnswer, QueryStatus, StopAnswer } from '../shared/api-answers.js'
import type { DbmAlias, DbmAliasParams, DbmName, DbmParams, DbmValue, ColumnDecl, UploadMode } from './dbm.js'
import { TabulaError } from './errors.js'
import { DEFAULT_RETRY, Transport, dbmError, type FetchLike, type Format, type RetryPolicy, type SessionParts } from './http.js'

/** `json`: one array per column. */
export type ColumnMajor = Record<string, unknown[]>
/** `json.rows`: column names and row arrays. */
export interface RowsResult {
  readonly cols: string[]
  readonly rows: unknown[][]
}
/** `json.keyed`: one object per row. */
export type KeyedRows = Record<string, unknown>[]

export type ResultOf<F extends Format> = F extends 'json'
  ? ColumnMajor
  : F extends 'json.rows'
    ? RowsResult
    : F extends 'json.keyed'
      ? KeyedRows
      : F extends 'arrow' | 'parquet'
        ? Uint8Array
        : string

export interface ClientOptions {
  /** The service: `http://host:8080` (then `version` picks the API version), or a full `…/v1/api`. */
  readonly baseUrl: string
  /** The `{version}` path segment; default `v1`. */
  readonly version?: string
  /** A fetch implementation; default the global fetch. */
  readonly fetch?: FetchLike
  /** A session to use from the start (saved by an earlier login), instead of logging in. */
  readonly session?: SessionParts
  /** Retries of reads (never of anything that changes something). */
  readonly retry?: Partial<RetryPolicy>
}

export interface RequestOptions {
  readonly signal?: AbortSignal
}

export interface FormatOptions<F extends Format> extends RequestOptions {
  readonly format?: F
}

export interface QueryOptions<F extends Format> extends FormatOptions<F> {
  /** Save the result as a table at this dotted path (`savetable`). */
  readonly savetable?: string
  /** With savetable: replace an existing table. */
  readonly replace?: boolean
  /** With savetable: the table's title. */
  readonly title?: string
  /** Other parameters, sent as they are (for example `truncate_`). */
  readonly params?: Readonly<Record<string, string | number | boolean>>
}

export interface Range {
  /** First row, from 0. */
  readonly from?: number
  /** Row after the last (excluded). */
  readonly to?: number
}

export interface LoginOptions {
  /** possess (default): join a live session; yes: end it and start anew; no: refuse when one exists. */
  readonly kill?: 'possess' | 'yes' | 'no'
  readonly signal?: AbortSignal
}

export interface UploadOptions extends RequestOptions {
  readonly mode?: UploadMode
  readonly cols?: readonly ColumnDecl[]
  readonly title?: string
  /** Called after every chunk with the rows stored so far. */
  readonly onChunk?: (progress: { rows: number; chunks: number }) => void
}

/** The rows of something that keeps a result: a table, api/sql's or api/run's last result, an instance. */
export class ResultHandle {
  constructor(
    protected readonly transport: Transport,
    /** The path below `api/`: `sql`, `run`, a table's dotted path, or an instance's tag. */
    readonly path: string,
    /** The names `!data` takes for its range: sql uses range/to, the others range_/to_. */
    private readonly rangeNames: readonly (readonly [string, string])[],
  ) {}

  cols<F extends Format = 'json'>(opts: FormatOptions<F> = {}): Promise<ResultOf<F>> {
    return this.read('!cols', opts.format ?? 'json', {}, opts.signal) as Promise<ResultOf<F>>
  }

  async rows(opts: RequestOptions = {}): Promise<number> {
    return (await this.read('!rows', 'json', {}, opts.signal)) as number
  }

  data<F extends Format = 'json'>(range: Range & FormatOptions<F> = {}): Promise<ResultOf<F>> {
    const query: Record<string, number | undefined> = {}
    for (const [from, to] of this.rangeNames) {
      query[from] = range.from
      query[to] = range.to
    }
    return this.read('!data', range.format ?? 'json', query, range.signal) as Promise<ResultOf<F>>
  }

  /** Column metadata, row count and the first 500 rows at once. */
  head<F extends Format = 'json'>(opts: FormatOptions<F> = {}): Promise<{ cols: ColumnMajor; rows: number; data: ResultOf<F> }> {
    return this.read('!head', opts.format ?? 'json', {}, opts.signal) as Promise<{ cols: ColumnMajor; rows: number; data: ResultOf<F> }>
  }

  /** Progress of the query running there (on whichever gateway runs it). */
  async status(opts: RequestOptions = {}): Promise<QueryStatus> {
    return (await this.read('!status', 'json', {}, opts.signal)) as QueryStatus
  }

  /** Stops the query running there; true when one was running. Sent once (it acts). */
  async stop(opts: RequestOptions & { force?: boolean } = {}): Promise<boolean> {
    const reply = (await this.transport.send({
      method: 'POST',
      path: `${this.path}/!stop`,
      format: 'json',
      json: opts.force ? { force_: 1 } : undefined,
      signal: opts.signal,
    })) as Partial<StopAnswer>
    return reply.stopped === true
  }

  private read(method: string, format: Format, query: Record<string, number | undefined>, signal?: AbortSignal): Promise<unknown> {
    return this.transport.send({ method: 'GET', path: `${this.path}/${method}`, format, query, read: true, signal })
  }
}

/** An instance made by `api/new`: an sql or run app, a fixed query or a dynamic query. */
export class Instance extends ResultHandle {
  constructor(
    transport: Transport,
    readonly tag: number,
  ) {
    // The client does not know which app the instance is: both pairs of range names are sent,
    // and the instance reads the pair it uses.
    super(transport, String(tag), [
      ['range', 'to'],
      ['range_', 'to_'],
    ])
  }

  /** Sets variables (a dynamic instance); answers the index widget or the widget status table. */
  set<F extends Format = 'json'>(vars: Readonly<Record<string, string | number | boolean>>, opts: FormatOptions<F> = {}): Promise<unknown> {
    return this.transport.send({ method: 'POST', path: this.path, format: opts.format ?? 'json', json: vars, signal: opts.signal })
  }

  /** Runs SQL in an sql instance (which keeps the result). */
  sql<F extends Format = 'json'>(text: string, opts: QueryOptions<F> = {}): Promise<ResultOf<F>> {
    return sendQuery(this.transport, this.path, 'sql', text, opts)
  }

  /** Runs a macro query in a run instance (which keeps the result). */
  run<F extends Format = 'json'>(xml: string, opts: QueryOptions<F> = {}): Promise<ResultOf<F>> {
    return sendQuery(this.transport, this.path, 'xml', xml, opts)
  }

  /** A named widget of a dynamic instance, with its own read methods. */
  widget(name: string): ResultHandle {
    return new ResultHandle(this.transport, `${this.path}/${encodeURIComponent(name)}`, [['range_', 'to_']])
  }
}

/**
 * Posts a query (SQL text, or a macro query's XML) to `path`: api/sql or api/run, or an
 * instance of either app. Sent once: with savetable it writes a table.
 */
function sendQuery<F extends Format>(transport: Transport, path: string, param: 'sql' | 'xml', text: string, opts: QueryOptions<F>): Promise<ResultOf<F>> {
  const json = {
    ...opts.params,
    [param]: text,
    ...(opts.savetable !== undefined && { savetable: opts.savetable }),
    ...(opts.replace !== undefined && { replace: opts.replace ? 1 : 0 }),
    ...(opts.title !== undefined && { title: opts.title }),
  }
  return transport.send({ method: 'POST', path, format: opts.format ?? 'json', json, signal: opts.signal }) as Promise<ResultOf<F>>
}

/** The dotted path of a table or folder as URL path segments. */
const pathSegment = (path: string): string => encodeURIComponent(path)

export class Client {
  private readonly transport: Transport

  constructor(opts: ClientOptions) {
    const fetchImpl = opts.fetch ?? ((input, init) => fetch(input, init))
    this.transport = new Transport(apiBaseOf(opts.baseUrl, opts.version ?? 'v1'), fetchImpl, { ...DEFAULT_RETRY, ...opts.retry })
    if (opts.session) this.transport.session = opts.session
  }

  /** The `…/{version}/api` every request goes below. */
  get apiBase(): string {
    return this.transport.apiBase
  }

  /** The session's three parts (to save and restore), or null before login. */
  get session(): SessionParts | null {
    return this.transport.session
  }

  set session(s: SessionParts | null) {
    this.transport.session = s
  }

  /**
   * Logs in; the session cookie is built from the answer's uid, sid and epw, as the public client
   * does (the Set-Cookie header is not needed). The uid the service answers is adopted.
   */
  async login(uid: string, pw: string, opts: LoginOptions = {}): Promise<SessionParts> {
    const form: Record<string, string> = { uid, pw }
    if (opts.kill) form.kill = opts.kill
    const reply = (await this.transport.send({ method: 'POST', path: '!login', format: 'json', form, signal: opts.signal })) as Partial<LoginAnswer & ErrorBody>
    if (reply.error || !reply.sid || !reply.epw || !reply.uid) {
      throw new TabulaError({ status: 200, code: reply.code ?? 'bad_response', message: reply.error ?? 'The login answer has no session.' })
    }
    this.transport.session = { uid: reply.uid, sid: reply.sid, epw: reply.epw }
    return this.transport.session
  }

  /** Ends the session (and its instances and running queries). */
  async logout(opts: RequestOptions = {}): Promise<void> {
    try {
      await this.transport.send({ method: 'POST', path: '!logout', format: 'json', signal: opts.signal })
    } finally {
      this.transport.session = null
    }
  }

  /** Runs a macro-language query; the session keeps its result (`results('run')`). */
  run<F extends Format = 'json'>(xml: string, opts: QueryOptions<F> = {}): Promise<ResultOf<F>> {
    return sendQuery(this.transport, 'run', 'xml', xml, opts)
  }

  /** Runs one read-only SQL statement; the session keeps its result (`results('sql')`). */
  sql<F extends Format = 'json'>(text: string, opts: QueryOptions<F> = {}): Promise<ResultOf<F>> {
    return sendQuery(this.transport, 'sql', 'sql', text, opts)
  }

  /** The session's last `sql` or `run` result, read in parts. */
  results(app: 'sql' | 'run'): ResultHandle {
    return new ResultHandle(this.transport, app, [app === 'sql' ? ['range', 'to'] : ['range_', 'to_']])
  }

  /** A stored table, read in parts (`!cols`, `!rows`, `!data`). */
  table(path: string): ResultHandle {
    return new ResultHandle(this.transport, pathSegment(path), [['range_', 'to_']])
  }

  /**
   * A new instance: of an app (`'sql'`, `'run'`), or of a query when the argument is XML (it
   * starts with `<`); `vars` set a dynamic query's variables at creation.
   */
  async newInstance(appOrXml: string, vars: Readonly<Record<string, string | number | boolean>> = {}, opts: RequestOptions = {}): Promise<Instance> {
    const isXml = appOrXml.trimStart().startsWith('<')
    const reply = (await this.transport.send({
      method: 'POST',
      path: isXml ? 'new' : `new/${encodeURIComponent(appOrXml)}`,
      format: 'json',
      json: isXml ? { ...vars, xml: appOrXml } : vars,
      signal: opts.signal,
    })) as Partial<NewInstanceAnswer>
    if (typeof reply.tag !== 'number') throw new TabulaError({ status: 200, code: 'bad_response', message: 'The answer of api/new has no tag.' })
    return new Instance(this.transport, reply.tag)
  }

  /** An instance made earlier (by this session). */
  instance(tag: number | string): Instance {
    const n = Number(tag)
    if (!Number.isSafeInteger(n) || n < 0) throw new TypeError(`An instance tag is a whole number (got ${JSON.stringify(tag)}).`)
    return new Instance(this.transport, n)
  }

  /** The folders and tables in a folder (the root without a path) you may read. */
  ls<F extends Format = 'json'>(path = '', opts: FormatOptions<F> = {}): Promise<ResultOf<F>> {
    return this.transport.send({
      method: 'GET',
      path: path === '' ? 'ls' : `ls/${pathSegment(path)}`,
      format: opts.format ?? 'json',
      read: true,
      signal: opts.signal,
    }) as Promise<ResultOf<F>>
  }

  /** The endpoints the service offers (`api`). */
  endpoints(opts: RequestOptions = {}): Promise<ColumnMajor> {
    return this.transport.send({ method: 'GET', path: '', format: 'json', read: true, signal: opts.signal }) as Promise<ColumnMajor>
  }

  /**
   * One administrative transaction. Answers its `value`; an `rc` 1 answer throws a TabulaError
   * with the transaction's code and message (and the status that code has on other endpoints).
   * Sent once, never retried: it may change the catalog.
   */
  async dbm<N extends DbmName | DbmAlias>(
    name: N,
    params: N extends DbmName ? DbmParams[N] : N extends DbmAlias ? DbmAliasParams[N] : never,
    opts: RequestOptions = {},
  ): Promise<DbmValue<N>> {
    const reply = (await this.transport.send({ method: 'POST', path: 'dbm', format: 'json', json: { cmd: [name, params] }, signal: opts.signal })) as DbmReply
    // Checked, not trusted: anything but rc 0 (a proxy's JSON, say) is reported as a failure.
    if (reply.rc !== 0) throw dbmError(reply)
    return reply.value as DbmValue<N>
  }

  /**
   * One chunk of an upload as CSV bytes (its header line first), sent as the request body rather
   * than inside JSON: nothing to encode here or to decode on the service. Chunks with `seq` may be
   * sent before the one before them is answered; the service applies them in order. With
   * `format: 'parquet'` or `'arrow'` the bytes are a whole Parquet file or Arrow stream instead.
   */
  async uploadChunk(
    upload: string,
    seq: number,
    csv: Uint8Array,
    opts: RequestOptions & { readonly format?: 'csv' | 'parquet' | 'arrow' } = {},
  ): Promise<DbmValue<'upload_chunk'>> {
    const cmd = JSON.stringify(['upload_chunk', { upload, seq }])
    // A Parquet file or Arrow stream goes as the body too, with its own media type.
    const rows = opts.format === 'parquet' || opts.format === 'arrow' ? { binary: { format: opts.format, bytes: csv } } : { csv }
    const reply = (await this.transport.send({ method: 'POST', path: 'dbm', format: 'json', query: { cmd }, ...rows, signal: opts.signal })) as DbmReply
    if (reply.rc !== 0) throw dbmError(reply)
    return reply.value as DbmValue<'upload_chunk'>
  }

  /**
   * Uploads CSV text in chunks (upload_begin, upload_chunk…, upload_commit): each chunk is CSV
   * text that starts with the header line. Memory on both sides stays one chunk. Chunks carry
   * their number, so the service would recognise one sent twice; on any failure the upload is
   * aborted and the error thrown. Answers the table.
   */
  async upload(path: string, chunks: AsyncIterable<string> | Iterable<string>, opts: UploadOptions = {}): Promise<DbmValue<'upload_commit'>> {
    const begun = await this.dbm('upload_begin', { path, mode: opts.mode, cols: opts.cols, title: opts.title }, opts)
    try {
      let seq = 0
      for await (const csv of chunks) {
        const progress = await this.uploadChunk(begun.upload, ++seq, new TextEncoder().encode(csv), opts)
        opts.onChunk?.(progress)
      }
      return await this.dbm('upload_commit', { upload: begun.upload }, opts)
    } catch (err) {
      // Without its own signal: the caller's may be what just fired.
      await this.dbm('upload_abort', { upload: begun.upload }).catch(() => undefined)
      throw err
    }
  }
}

/** `…/{version}/api` from a base URL that is either the service's root or already that. */
export function apiBaseOf(baseUrl: string, version: string): string {
  const base = baseUrl.replace(/\/+$/, '')
  if (/\/[^/]+\/api$/.test(base)) return base
  return `${base}/${encodeURIComponent(version)}/api`
}
