/**
 * Running one query from the CLI (the sql and run commands, and each statement of the shell):
 * the progress line while it runs, Ctrl-C that stops it on the service, and its result written
 * in the chosen format to stdout or to `-o FILE`: text formats from the rows, Parquet and Arrow
 * as the service writes them.
 *
 * Ctrl-C first asks the service to stop the query (`!stop`, answered by whichever gateway runs
 * it) and only then drops the request, so the message can say whether the query was stopped; a
 * second Ctrl-C leaves at once (main.ts).
 */
import { writeFile } from 'node:fs/promises'
import type { Client, RowsResult } from '../client/index.js'
import { UsageError, type OptionSpecs } from './args.js'
import { Interrupted, type CommandContext } from './context.js'
import { formatRows, type BinaryFormat, type OutputFormat } from './output.js'
import { elapsedText, QueryProgress } from './query-progress.js'

export type Language = 'sql' | 'run'

export interface Query {
  readonly lang: Language
  readonly text: string
  readonly savetable?: string
  readonly replace?: boolean
  readonly title?: string
}

/** Options of the commands that run queries (the shell's, but for -o). */
export const QUERY_OPTIONS: OptionSpecs = {
  output: {
    type: 'string',
    short: 'o',
    arg: 'FILE',
    help: "Write the result to FILE instead of stdout (its extension chooses the format when --format doesn't).",
  },
  values: {
    type: 'string',
    arg: 'raw|formatted',
    help: "formatted: values as the columns' display formats show them (the default of table); raw: as stored (the default of json, jsonl, csv).",
  },
  quiet: { type: 'boolean', short: 'q', help: 'No progress line or row count on stderr.' },
}

/** Whether values come as the display formats show them: always for tables, else when asked. */
export function formattedValues(option: string | boolean | undefined, format: OutputFormat): boolean {
  if (option === undefined) return format === 'table'
  if (option === 'formatted' || option === 'raw') return option === 'formatted'
  throw new UsageError(`--values takes raw or formatted (got ${JSON.stringify(option)}).`)
}

/** How long to wait for `!stop` before giving up on it and dropping the request anyway. */
const STOP_WAIT_MS = 5000

async function stopOnService(client: Client, lang: Language): Promise<string> {
  try {
    const stopped = await client.results(lang).stop({ signal: AbortSignal.timeout(STOP_WAIT_MS) })
    return stopped ? 'Interrupted: the query was stopped on the service.' : 'Interrupted: the query had already ended on the service.'
  } catch (err) {
    return `Interrupted. The service could not be asked to stop the query (${(err as Error).message}); it stops when it sees the connection close.`
  }
}

export interface QueryRun {
  readonly result: RowsResult
  readonly elapsedMs: number
}

/**
 * Sends a query with `send` while the progress line runs; `signal` (Ctrl-C) stops it on the
 * service and throws Interrupted with what became of the query.
 */
async function stoppable<T>(
  ctx: CommandContext,
  client: Client,
  lang: Language,
  signal: AbortSignal,
  send: (signal: AbortSignal) => Promise<T>,
): Promise<{ value: T; elapsedMs: number }> {
  if (signal.aborted) throw new Interrupted('Interrupted.')
  const request = new AbortController()
  let stopping: Promise<string> | undefined
  const onAbort = (): void => {
    stopping = stopOnService(client, lang).finally(() => request.abort())
  }
  signal.addEventListener('abort', onAbort, { once: true })
  const quiet = ctx.options.quiet === true
  const progress = new QueryProgress(quiet ? { isTTY: false, write: () => true } : ctx.stderr, () => client.results(lang).status({ signal: request.signal }))
  try {
    const value = await send(request.signal)
    // A query that ended just as Ctrl-C came is still reported as interrupted: the user asked to stop.
    if (stopping) throw new Interrupted(await stopping)
    return { value, elapsedMs: progress.end() }
  } catch (err) {
    if (stopping) throw new Interrupted(await stopping)
    throw err
  } finally {
    progress.end()
    signal.removeEventListener('abort', onAbort)
  }
}

/** What a query sends besides its text and format. */
function queryOptions(q: Query, signal: AbortSignal) {
  return { signal, savetable: q.savetable, replace: q.replace, title: q.title }
}

/** Runs `q` and answers its rows (as the display formats show them for a table, or when asked). */
export async function runQuery(ctx: CommandContext, client: Client, q: Query, format: OutputFormat, signal: AbortSignal = ctx.signal): Promise<QueryRun> {
  const formatted = formattedValues(ctx.options.values, format)
  const { value, elapsedMs } = await stoppable(ctx, client, q.lang, signal, (s) => {
    const options = { ...queryOptions(q, s), format: 'json.rows' as const, params: formatted ? { values_: 'formatted' } : undefined }
    return q.lang === 'sql' ? client.sql(q.text, options) : client.run(q.text, options)
  })
  return { result: value, elapsedMs }
}

/**
 * Runs `q` and writes the service's own Parquet file or Arrow stream of its result (`:parquet`,
 * `:arrow`: column types kept, values as stored) to -o FILE, or to stdout when that is not a
 * terminal. Nothing is converted here.
 */
export async function runQueryToBinary(ctx: CommandContext, client: Client, q: Query, format: BinaryFormat, signal: AbortSignal = ctx.signal): Promise<void> {
  const file = ctx.options.output as string | undefined
  if (file === undefined && ctx.stdout.isTTY) throw new UsageError(`${BINARY_NAMES[format]} is binary: write it to a file with -o FILE, or pipe it.`)
  if (ctx.options.values === 'formatted')
    throw new UsageError(`--values formatted is for text output; ${BINARY_NAMES[format]} keeps the stored values and their types.`)
  const { value: bytes, elapsedMs } = await stoppable(ctx, client, q.lang, signal, (s) => {
    const options = { ...queryOptions(q, s), format }
    return q.lang === 'sql' ? client.sql(q.text, options) : client.run(q.text, options)
  })
  if (file !== undefined) await writeFile(file, bytes)
  else await new Promise<void>((resolve, reject) => ctx.stdout.write(bytes, (err) => (err ? reject(err) : resolve())))
  if (ctx.stderr.isTTY && ctx.options.quiet !== true)
    ctx.stderr.write(
      `${bytes.length.toLocaleString('en-US')} bytes of ${BINARY_NAMES[format]} in ${elapsedText(elapsedMs)}${file !== undefined ? `, written to ${file}` : ''}\n`,
    )
}

const BINARY_NAMES: Record<BinaryFormat, string> = { parquet: 'Parquet', arrow: 'an Arrow stream' }

/** The rows in `format`, to -o FILE or stdout; on a terminal, the row count and time on stderr. */
export async function emitRows(ctx: CommandContext, run: QueryRun, format: OutputFormat): Promise<void> {
  const text = formatRows(run.result, format)
  const file = ctx.options.output as string | undefined
  if (file !== undefined) await writeFile(file, text)
  else ctx.print(text)
  if (ctx.stderr.isTTY && ctx.options.quiet !== true) {
    const n = run.result.rows.length
    ctx.stderr.write(
      `${n.toLocaleString('en-US')} row${n === 1 ? '' : 's'} in ${elapsedText(run.elapsedMs)}${file !== undefined ? `, written to ${file}` : ''}\n`,
    )
  }
}
