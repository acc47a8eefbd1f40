/**
 * Where a query's text comes from: the argument itself, a file (`-f FILE`, or a file argument for
 * run), or stdin (`-` or `-f -`, or nothing at all when stdin is a pipe), so that
 * `tabula sql -f q.sql`, `tabula sql - < q.sql` and `cat q.sql | tabula sql` all work.
 */
import { readFile } from 'node:fs/promises'
import { UsageError } from './args.js'
import type { CommandContext } from './context.js'

/** All of a stream as text. */
export async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const parts: Buffer[] = []
  for await (const p of stream as AsyncIterable<Buffer | string>) parts.push(typeof p === 'string' ? Buffer.from(p) : p)
  return Buffer.concat(parts).toString('utf8')
}

/** A file's text, or stdin's for '-'. */
export async function readSource(ctx: Pick<CommandContext, 'stdin'>, file: string): Promise<string> {
  if (file === '-') return readAll(ctx.stdin)
  try {
    return await readFile(file, 'utf8')
  } catch (err) {
    throw new UsageError(`Cannot read ${file}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}.`)
  }
}

/**
 * The text of the query a command runs. `inline` says what a positional argument is: the query
 * itself (sql), or a file unless it starts with `<` (run, whose queries are XML).
 */
export async function queryText(ctx: CommandContext, inline: 'text' | 'file-or-xml'): Promise<string> {
  const file = ctx.options.file as string | undefined
  const arg = ctx.positionals[0]
  if (file !== undefined && arg !== undefined) throw new UsageError('Give the query as an argument or with -f FILE, not both.')
  let text: string
  if (file !== undefined) text = await readSource(ctx, file)
  else if (arg === '-') text = await readAll(ctx.stdin)
  else if (arg !== undefined) text = inline === 'text' || arg.trimStart().startsWith('<') ? arg : await readSource(ctx, arg)
  else if ((ctx.stdin as NodeJS.ReadStream).isTTY) throw new UsageError('No query: give it as an argument, with -f FILE, or on stdin (- or a pipe).')
  else text = await readAll(ctx.stdin)
  if (text.trim() === '') throw new UsageError(`The query is empty${file !== undefined ? ` (${file})` : ''}.`)
  return text
}
