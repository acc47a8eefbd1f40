/**
 * `upload FILE PATH` and `download PATH FILE`: tables in and out as CSV, Parquet or Arrow.
 *
 * upload reads a CSV file a chunk at a time (csv-chunks.ts) and sends each chunk with dbm
 * upload_chunk, so a file of any size needs one chunk of memory here and on the service; the
 * progress line shows rows per second and the time left. Ctrl-C (or any failure) aborts the
 * upload on the service: nothing is saved. A Parquet file goes as one chunk (the service reads it
 * whole; it must fit MAX_BODY_BYTES); an Arrow stream goes a record batch or more per chunk,
 * each chunk a stream of its own. The service keeps the files' column types.
 *
 * download reads the table's row count, then its rows a page at a time in the service's CSV
 * (`!data:csv`: dates as YYYY-MM-DD, so they upload again as dates), keeping the first page's
 * header only. Parquet and Arrow come in one request, written as they arrive.
 */
import { createReadStream, createWriteStream } from 'node:fs'
import { readFile, stat } from 'node:fs/promises'
import { RecordBatchReader, RecordBatchStreamWriter, type RecordBatch } from 'apache-arrow'
import { once } from 'node:events'
import type { Client, ColumnDecl, ResultHandle } from '../client/index.js'
import { UsageError } from './args.js'
import type { Command } from './context.js'
import { readCsv } from '../shared/csv/read.js'
import { csvChunks } from './csv-chunks.js'
import { formatValue } from './output.js'
import { Progress } from './progress.js'

const TYPES = ['int', 'bigint', 'float', 'text', 'date']

/** The file formats upload and download know, by the file name's ending or --format. */
type FileFormat = 'csv' | 'parquet' | 'arrow'
const FILE_FORMATS: readonly FileFormat[] = ['csv', 'parquet', 'arrow']

/** --format, else the file's extension (.parquet; .arrow, .arrows, .ipc), else CSV. */
export function fileFormat(file: string, option: string | boolean | undefined): FileFormat {
  if (option !== undefined) {
    if (!FILE_FORMATS.includes(option as FileFormat)) throw new UsageError(`--format takes ${FILE_FORMATS.join(', ')} (got ${JSON.stringify(option)}).`)
    return option as FileFormat
  }
  if (/\.parquet$/i.test(file)) return 'parquet'
  if (/\.(arrow|arrows|ipc)$/i.test(file)) return 'arrow'
  return 'csv'
}

/** `--types a=int,b=text` as a map of lower-cased column name → type. */
export function parseTypes(spec: string | undefined): Map<string, string> {
  const types = new Map<string, string>()
  if (!spec) return types
  for (const part of spec
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const m = /^([A-Za-z][A-Za-z0-9_]*)=(\w+)$/.exec(part)
    if (!m || !TYPES.includes(m[2]))
      throw new UsageError(`--types takes name=type pairs with a type of ${TYPES.join(', ')}, separated by commas (got ${JSON.stringify(part)}).`)
    types.set(m[1].toLowerCase(), m[2])
  }
  return types
}

function positiveNumber(v: string | boolean | undefined, name: string, fallback: number): number {
  if (v === undefined) return fallback
  const n = Number(v)
  if (!Number.isFinite(n) || n <= 0) throw new UsageError(`--${name} takes a positive number (got ${JSON.stringify(v)}).`)
  return n
}

/** Chunks sent before the first of them is answered: the service reads two at once. */
const CHUNKS_IN_FLIGHT = 4

export const UPLOAD: Command = {
  name: 'upload',
  usage: 'tabula upload FILE.csv|FILE.parquet|FILE.arrow|- PATH [--types col=int,...] [--mode noreplace|replace|append]',
  summary: 'Load a CSV file (of any size, in chunks), a Parquet file or an Arrow stream into a table.',
  details: [
    'The first line of a CSV file names the columns. Types are inferred by the service from the values',
    '(whole numbers: int or bigint, numbers: float, YYYY-MM-DD: date, anything else: text) unless --types',
    'gives them; Parquet and Arrow files bring their own types (dates stay dates, 64-bit integers are',
    'bigint within ±2^53). PATH is a dotted table path, or a bare name for your folder uploads.<uid>.',
    'Progress (rows, rows/s, time left) goes to stderr; the table is printed when it is saved.',
    'Ctrl-C aborts: nothing is saved.',
  ].join('\n'),
  positionals: [2, 2],
  options: {
    types: { type: 'string', arg: 'SPEC', help: 'Column types, e.g. id=int,price=float,day=date,code=text (others inferred).' },
    format: { type: 'string', arg: 'FORMAT', help: 'csv, parquet or arrow (default: from the file name, else csv).' },
    mode: { type: 'string', arg: 'MODE', help: 'noreplace (default: an existing table is an error), replace or append.' },
    title: { type: 'string', arg: 'TEXT', help: 'Title of the table.' },
    'chunk-mb': { type: 'string', arg: 'N', help: "Megabytes of CSV per request (default 4; keep under the service's MAX_BODY_BYTES)." },
    'chunk-rows': { type: 'string', arg: 'N', help: 'At most this many rows per request (default: no limit).' },
    quiet: { type: 'boolean', short: 'q', help: 'No progress line.' },
  },
  async run(ctx) {
    const [file, path] = ctx.positionals
    const mode = ctx.options.mode as string | undefined
    if (mode !== undefined && !['noreplace', 'replace', 'append'].includes(mode))
      throw new UsageError(`--mode takes noreplace, replace or append (got ${JSON.stringify(mode)}).`)
    const types = parseTypes(ctx.options.types as string | undefined)
    const maxChars = Math.round(positiveNumber(ctx.options['chunk-mb'], 'chunk-mb', 4) * 1024 * 1024)
    const maxRows = ctx.options['chunk-rows'] === undefined ? undefined : Math.floor(positiveNumber(ctx.options['chunk-rows'], 'chunk-rows', 1))
    const size =
      file === '-'
        ? null
        : await stat(file).then(
            (s) => s.size,
            () => {
              throw new UsageError(`No such file: ${file}`)
            },
          )
    const format = fileFormat(file, ctx.options.format)
    if (format !== 'csv') {
      if (types.size > 0) throw new UsageError(`--types is for CSV; a ${format} file brings its own column types.`)
      if (file === '-') throw new UsageError(`A ${format} upload reads a file; give its name rather than -.`)
      return uploadBinary(ctx, format, file, path, { mode, maxChars })
    }
    const input = file === '-' ? ctx.stdin : createReadStream(file, { highWaterMark: 1 << 20 })
    const progress = ctx.options.quiet ? null : new Progress(ctx.stderr, size)
    await ctx.withClient(async (client) => {
      let cols: ColumnDecl[] | undefined
      let begun: string | null = null
      let rows = 0
      let seq = 0
      // Chunks on their way: the service reads two at once (one a table-writer thread) and applies
      // them in order, while the next one is read and cut here.
      const inFlight: Promise<unknown>[] = []
      try {
        for await (const chunk of csvChunks(input as AsyncIterable<Buffer>, { maxChars, maxRows }, (header) => {
          if (types.size === 0) return
          const names = readCsv(header).header
          const unknown = [...types.keys()].filter((t) => !names.some((n) => n.toLowerCase() === t))
          if (unknown.length > 0) throw new UsageError(`--types names ${unknown.join(', ')}, which the CSV header (${names.join(', ')}) does not have.`)
          cols = names.map((name) => ({ name, ...(types.has(name.toLowerCase()) ? { type: types.get(name.toLowerCase()) as ColumnDecl['type'] } : {}) }))
        })) {
          if (begun === null)
            begun = (
              await client.dbm(
                'upload_begin',
                { path, mode: mode as 'replace' | undefined, cols, title: ctx.options.title as string | undefined },
                { signal: ctx.signal },
              )
            ).upload
          if (inFlight.length >= CHUNKS_IN_FLIGHT) await inFlight.shift()
          const sent = client.uploadChunk(begun, ++seq, chunk.csv, { signal: ctx.signal }).then((reply) => {
            rows = Math.max(rows, reply.rows)
            progress?.update(rows, chunk.bytesRead)
          })
          // Its failure is thrown where it is awaited; until then it must not count as unhandled.
          sent.catch(() => undefined)
          inFlight.push(sent)
        }
        await Promise.all(inFlight)
        if (begun === null) throw new UsageError(`${file === '-' ? 'The input' : file} has no rows (only a header, or nothing).`)
        progress?.update(rows, size ?? 0, true)
        const table = await client.dbm('upload_commit', { upload: begun }, { signal: ctx.signal })
        const { rowsPerSecond } = progress?.rates(table.rows, size ?? 0) ?? { rowsPerSecond: 0 }
        progress?.finish(`Saved ${table.rows.toLocaleString('en-US')} rows as ${table.path} (${Math.round(rowsPerSecond).toLocaleString('en-US')} rows/s).`)
        ctx.print(formatValue({ path: table.path, rows: table.rows, cols: table.cols?.map((c) => `${c.name}:${c.type}`).join(',') }, ctx.format))
      } catch (err) {
        // Not with ctx.signal: after Ctrl-C it has fired, and the abort must still be sent.
        if (begun !== null) await client.dbm('upload_abort', { upload: begun }).catch(() => undefined)
        throw err
      }
    })
  },
}

/** Context of a command, as run() receives it. */
type RunContext = Parameters<Command['run']>[0]

/**
 * The chunks of an Arrow stream (or file) on disk: record batches gathered up to `maxBytes` of
 * their buffers, each chunk written as a stream of its own (schema first), so every chunk reads
 * alone on the service.
 */
export async function* arrowChunks(bytes: Uint8Array, maxBytes: number): AsyncGenerator<Uint8Array> {
  const reader = RecordBatchReader.from(bytes)
  let batches: RecordBatch[] = []
  let size = 0
  const flush = (): Uint8Array => {
    const out = RecordBatchStreamWriter.writeAll(batches).toUint8Array(true)
    batches = []
    size = 0
    return out
  }
  for (const batch of reader) {
    const bytesOf = batch.data.children.reduce((n, c) => n + c.byteLength, 0)
    if (batches.length > 0 && size + bytesOf > maxBytes) yield flush()
    batches.push(batch)
    size += bytesOf
  }
  if (batches.length > 0) yield flush()
}

/** Uploads a Parquet file (one chunk) or an Arrow stream (a chunk per few batches). */
async function uploadBinary(
  ctx: RunContext,
  format: 'parquet' | 'arrow',
  file: string,
  path: string,
  opts: { mode?: string; maxChars: number },
): Promise<void> {
  const bytes = await readFile(file).catch(() => {
    throw new UsageError(`No such file: ${file}`)
  })
  const chunks = format === 'parquet' ? [new Uint8Array(bytes)] : arrowChunks(bytes, opts.maxChars)
  await ctx.withClient(async (client) => {
    const begun = (
      await client.dbm(
        'upload_begin',
        { path, mode: opts.mode as 'replace' | undefined, title: ctx.options.title as string | undefined },
        { signal: ctx.signal },
      )
    ).upload
    try {
      let seq = 0
      for await (const chunk of chunks) await client.uploadChunk(begun, ++seq, chunk, { signal: ctx.signal, format })
      const table = await client.dbm('upload_commit', { upload: begun }, { signal: ctx.signal })
      ctx.stderr.write(`Saved ${table.rows.toLocaleString('en-US')} rows as ${table.path}.\n`)
      ctx.print(formatValue({ path: table.path, rows: table.rows, cols: table.cols?.map((c) => `${c.name}:${c.type}`).join(',') }, ctx.format))
    } catch (err) {
      // Not with ctx.signal: after Ctrl-C it has fired, and the abort must still be sent.
      await client.dbm('upload_abort', { upload: begun }).catch(() => undefined)
      throw err
    }
  })
}

/** What PATH names: a table, the session's sql/run result, or an instance by tag. */
function source(client: Client, path: string): ResultHandle {
  if (/^\d+$/.test(path)) return client.instance(path)
  if (path === 'sql' || path === 'run') return client.results(path)
  return client.table(path)
}

export const DOWNLOAD: Command = {
  name: 'download',
  usage: 'tabula download PATH FILE.csv|FILE.parquet|FILE.arrow|-',
  summary: "Save a table (or the last sql/run result, or an instance's) as CSV, Parquet or Arrow.",
  details:
    'PATH is a dotted table path, "sql" or "run" (your last result), or an instance tag. CSV rows are read a page at a time, dates as YYYY-MM-DD; Parquet and Arrow keep column types (dates as dates, big integers as 64-bit).',
  positionals: [2, 2],
  options: {
    'page-rows': { type: 'string', arg: 'N', help: 'Rows per request (default 100000).' },
    format: { type: 'string', arg: 'FORMAT', help: 'csv, parquet or arrow (default: from the file name, else csv).' },
  },
  async run(ctx) {
    const [path, file] = ctx.positionals
    const page = Math.floor(positiveNumber(ctx.options['page-rows'], 'page-rows', 100_000))
    const format = fileFormat(file, ctx.options.format)
    await ctx.withClient(async (client) => {
      const handle = source(client, path)
      const total = await handle.rows({ signal: ctx.signal })
      const out = file === '-' ? ctx.stdout : createWriteStream(file)
      const write = async (chunk: string | Uint8Array) => {
        if (!out.write(chunk)) await once(out, 'drain')
      }
      if (format !== 'csv') {
        // One file cannot be put together from pages: the whole range in one request.
        await write(await handle.data({ from: 0, to: total, format, signal: ctx.signal }))
      } else {
        for (let from = 0; from < total || from === 0; from += page) {
          const text = await handle.data({ from, to: Math.min(total, from + page), format: 'csv', signal: ctx.signal })
          // Every page starts with the header line (column names never hold a line break).
          await write(from === 0 ? text : text.slice(text.indexOf('\r\n') + 2))
          if (total === 0) break
        }
      }
      if (out !== ctx.stdout) {
        const done = once(out, 'finish')
        out.end()
        await done
        ctx.stderr.write(`Saved ${total.toLocaleString('en-US')} rows of ${path} to ${file}.\n`)
      }
    })
  },
}
