/**
 * `upload FILE.csv PATH` and `download PATH FILE.csv`: tables in and out as CSV, streamed.
 *
 * upload reads the file a chunk at a time (csv-chunks.ts) and sends each chunk with dbm
 * upload_chunk, so a file of any size needs one chunk of memory here and on the service; the
 * progress line shows rows per second and the time left. Ctrl-C (or any failure) aborts the
 * upload on the service: nothing is saved.
 *
 * download reads the table's row count, then its rows a page at a time (`!data:json.rows`), and
 * writes them as CSV.
 */
import { createReadStream, createWriteStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import { once } from 'node:events'
import type { Client, ColumnDecl, ResultHandle, RowsResult } from '../client/index.js'
import { UsageError } from './args.js'
import type { Command } from './context.js'
import { readCsv } from '../shared/csv/read.js'
import { csvChunks } from './csv-chunks.js'
import { csvLine, formatValue } from './output.js'
import { Progress } from './progress.js'

const TYPES = ['int', 'float', 'text', 'date']

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
  usage: 'tabula upload FILE.csv|- PATH [--types col=int,...] [--mode noreplace|replace|append]',
  summary: 'Load a CSV file (of any size, in chunks) into a table.',
  details: [
    'The first line of the file names the columns. Types are inferred by the service from the values',
    '(whole numbers: int, numbers: float, YYYY-MM-DD: date, anything else: text) unless --types gives',
    'them. PATH is a dotted table path, or a bare name for your folder uploads.<uid>.',
    'Progress (rows, rows/s, time left) goes to stderr; the table is printed when it is saved.',
    'Ctrl-C aborts: nothing is saved.',
  ].join('\n'),
  positionals: [2, 2],
  options: {
    types: { type: 'string', arg: 'SPEC', help: 'Column types, e.g. id=int,price=float,day=date,code=text (others inferred).' },
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

/** What PATH names: a table, the session's sql/run result, or an instance by tag. */
function source(client: Client, path: string): ResultHandle {
  if (/^\d+$/.test(path)) return client.instance(path)
  if (path === 'sql' || path === 'run') return client.results(path)
  return client.table(path)
}

export const DOWNLOAD: Command = {
  name: 'download',
  usage: 'tabula download PATH FILE.csv|-',
  summary: "Save a table (or the last sql/run result, or an instance's) as CSV.",
  details: 'PATH is a dotted table path, "sql" or "run" (your last result), or an instance tag. Rows are read a page at a time.',
  positionals: [2, 2],
  options: {
    'page-rows': { type: 'string', arg: 'N', help: 'Rows per request (default 100000).' },
  },
  async run(ctx) {
    const [path, file] = ctx.positionals
    const page = Math.floor(positiveNumber(ctx.options['page-rows'], 'page-rows', 100_000))
    await ctx.withClient(async (client) => {
      const handle = source(client, path)
      const total = await handle.rows({ signal: ctx.signal })
      const out = file === '-' ? ctx.stdout : createWriteStream(file)
      const write = async (text: string) => {
        if (!out.write(text)) await once(out, 'drain')
      }
      let cols: string[] | null = null
      for (let from = 0; from < total || cols === null; from += page) {
        const part = (await handle.data({ from, to: Math.min(total, from + page), format: 'json.rows', signal: ctx.signal })) as RowsResult
        if (cols === null) {
          cols = part.cols
          await write(csvLine(cols))
        }
        let text = ''
        for (const row of part.rows) text += csvLine(row)
        await write(text)
        if (total === 0) break
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
