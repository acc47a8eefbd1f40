/** The CLI's commands other than upload and download (transfer.ts). */
import { readFile } from 'node:fs/promises'
import { Client, type ResultHandle, type RowsResult } from '../client/index.js'
import { UsageError } from './args.js'
import type { Command, CommandContext } from './context.js'
import { credentialsFile, forgetSession, loadSession, saveSession } from './credentials.js'
import { formatRows, formatValue } from './output.js'
import { DOWNLOAD, UPLOAD } from './transfer.js'

/** All of stdin as text. */
async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const parts: Buffer[] = []
  for await (const p of stream as AsyncIterable<Buffer | string>) parts.push(typeof p === 'string' ? Buffer.from(p) : p)
  return Buffer.concat(parts).toString('utf8')
}

/** Text given on the command line, or read from stdin for '-'. */
async function inlineOrStdin(ctx: CommandContext, arg: string): Promise<string> {
  return arg === '-' ? readAll(ctx.stdin) : arg
}

/** A query from a file, or from stdin for '-'. */
async function readSource(ctx: CommandContext, file: string): Promise<string> {
  if (file === '-') return readAll(ctx.stdin)
  try {
    return await readFile(file, 'utf8')
  } catch {
    throw new UsageError(`Cannot read ${file}.`)
  }
}

/** Reads a password from the terminal without echoing it. */
function promptHidden(ctx: CommandContext, prompt: string): Promise<string> {
  const stdin = ctx.stdin as NodeJS.ReadStream
  return new Promise((resolve, reject) => {
    ctx.stderr.write(prompt)
    let text = ''
    stdin.setRawMode(true)
    stdin.resume()
    const done = (err: Error | null) => {
      stdin.setRawMode(false)
      stdin.pause()
      stdin.off('data', onData)
      ctx.stderr.write('\n')
      if (err) reject(err)
      else resolve(text)
    }
    const onData = (d: Buffer) => {
      for (const ch of d.toString('utf8')) {
        if (ch === '\r' || ch === '\n') return done(null)
        if (ch === '\u0003') return done(Object.assign(new Error('Interrupted.'), { name: 'AbortError' }))
        if (ch === '\u007f' || ch === '\b') text = text.slice(0, -1)
        else text += ch
      }
    }
    stdin.on('data', onData)
  })
}

const LOGIN: Command = {
  name: 'login',
  usage: 'tabula login --url URL [--user UID] [--password-stdin]',
  summary: 'Log in and keep the session for the next commands.',
  details: [
    'The password comes from $TABULA_PASSWORD, from stdin with --password-stdin, or is asked for on',
    'the terminal. Only the session (uid, sid, epw) and the URL are saved, in',
    '$TABULA_CONFIG_DIR/credentials.json (default ~/.config/tabula/credentials.json), mode 0600;',
    'never the password. Without a saved session, commands log in by themselves when',
    'TABULA_UID and TABULA_PASSWORD are set.',
  ].join('\n'),
  positionals: [0, 0],
  options: {
    user: { type: 'string', short: 'u', arg: 'UID', help: 'User id (default: $TABULA_UID).' },
    'password-stdin': { type: 'boolean', help: 'Read the password from stdin (its first line).' },
    kill: { type: 'string', arg: 'K', help: 'possess (default: join your live session), yes (end it and start anew) or no.' },
  },
  async run(ctx) {
    const saved = await loadSession(ctx.env)
    const url = (ctx.options.url as string | undefined) ?? ctx.env.TABULA_URL ?? saved?.url
    if (!url) throw new UsageError('No service URL: give --url URL or set TABULA_URL.')
    const version = (ctx.options['api-version'] as string | undefined) ?? ctx.env.TABULA_API_VERSION ?? (saved?.url === url ? saved.version : 'v1')
    const client = new Client({ baseUrl: url, version })
    const uid = (ctx.options.user as string | undefined) ?? ctx.env.TABULA_UID
    if (!uid) throw new UsageError('No user id: give --user UID or set TABULA_UID.')
    let pw: string
    if (ctx.options['password-stdin']) pw = (await readAll(ctx.stdin)).split(/\r?\n/)[0]
    else if (ctx.env.TABULA_PASSWORD) pw = ctx.env.TABULA_PASSWORD
    else if ((ctx.stdin as NodeJS.ReadStream).isTTY) pw = await promptHidden(ctx, `Password for ${uid}: `)
    else throw new UsageError('No password: set TABULA_PASSWORD, pipe it with --password-stdin, or run on a terminal to be asked.')
    const kill = ctx.options.kill as 'possess' | 'yes' | 'no' | undefined
    if (kill !== undefined && !['possess', 'yes', 'no'].includes(kill)) throw new UsageError(`--kill takes possess, yes or no (got ${JSON.stringify(kill)}).`)
    const session = await client.login(uid, pw, { kill, signal: ctx.signal })
    const file = await saveSession({ url, version, ...session, saved: new Date().toISOString() }, ctx.env)
    ctx.stderr.write(`Logged in to ${url} as ${session.uid}; session saved in ${file}.\n`)
  },
}

const LOGOUT: Command = {
  name: 'logout',
  usage: 'tabula logout',
  summary: 'End the session on the service and forget it here.',
  positionals: [0, 0],
  options: {},
  async run(ctx) {
    const saved = await loadSession(ctx.env)
    if (saved)
      await ctx
        .withClient((client) => client.logout({ signal: ctx.signal }))
        .catch((err: unknown) => {
          // A session the service already ended is still forgotten here.
          if ((err as { code?: string }).code !== 'no_session') throw err
        })
    await forgetSession(ctx.env)
    ctx.stderr.write(saved ? 'Logged out.\n' : `No saved session (${credentialsFile(ctx.env)}).\n`)
  },
}

const RUN: Command = {
  name: 'run',
  usage: 'tabula run FILE.xml|- [--save PATH [--replace]]',
  summary: 'Run a macro-language query from a file (or stdin) and print its result.',
  positionals: [1, 1],
  options: {
    save: { type: 'string', arg: 'PATH', help: 'Also save the result as a table (savetable).' },
    replace: { type: 'boolean', help: 'With --save: replace an existing table.' },
    title: { type: 'string', arg: 'TEXT', help: "With --save: the table's title." },
  },
  async run(ctx) {
    const xml = await readSource(ctx, ctx.positionals[0])
    const result = await ctx.withClient((client) =>
      client.run(xml, {
        format: 'json.rows',
        signal: ctx.signal,
        savetable: ctx.options.save as string | undefined,
        replace: ctx.options.replace === true ? true : undefined,
        title: ctx.options.title as string | undefined,
      }),
    )
    ctx.print(formatRows(result, ctx.format))
  },
}

const SQL: Command = {
  name: 'sql',
  usage: 'tabula sql "SELECT ..."|-',
  summary: 'Run one read-only SQL statement and print its result.',
  details: 'Tables are named by dotted path, e.g. select store, count(*) n from pub.demo.retail.item group by store.',
  positionals: [1, 1],
  options: {},
  async run(ctx) {
    const text = await inlineOrStdin(ctx, ctx.positionals[0])
    const result = await ctx.withClient((client) => client.sql(text, { format: 'json.rows', signal: ctx.signal }))
    ctx.print(formatRows(result, ctx.format))
  },
}

const LS: Command = {
  name: 'ls',
  usage: 'tabula ls [PATH]',
  summary: 'List the folders and tables in a folder (the root without PATH).',
  positionals: [0, 1],
  options: {},
  async run(ctx) {
    const path = ctx.positionals[0] ?? ''
    const result = await ctx.withClient((client) => client.ls(path, { format: 'json.rows', signal: ctx.signal }))
    const keep = ['name', 'type', 'title', 'rows', 'cols', 'owner', 'updated']
    const picked = ctx.format === 'table' ? pickColumns(result, keep) : result
    ctx.print(formatRows(picked, ctx.format))
  },
}

function pickColumns(r: RowsResult, names: readonly string[]): RowsResult {
  const idx = names.map((n) => r.cols.indexOf(n)).filter((i) => i >= 0)
  return { cols: idx.map((i) => r.cols[i]), rows: r.rows.map((row) => idx.map((i) => row[i])) }
}

const DBM: Command = {
  name: 'dbm',
  usage: 'tabula dbm NAME [JSON|-]',
  summary: 'Run one administrative transaction (list_transactions lists them).',
  details: 'JSON is the object of parameters, e.g. tabula dbm make_dir \'{"path": "team"}\'. Without it: {}.',
  positionals: [1, 2],
  options: {},
  async run(ctx) {
    const [name, raw] = ctx.positionals
    const text = await inlineOrStdin(ctx, raw ?? '{}')
    let params: unknown
    try {
      params = JSON.parse(text)
    } catch {
      throw new UsageError(`The parameters are not valid JSON: ${text.slice(0, 80)}`)
    }
    if (typeof params !== 'object' || params === null || Array.isArray(params))
      throw new UsageError('The parameters must be a JSON object, such as {"path": "pub"}.')
    const value = await ctx.withClient((client) => client.dbm(name as 'list_dir', params as never, { signal: ctx.signal }))
    ctx.print(formatValue(value, ctx.format))
  },
}

const NEW: Command = {
  name: 'new',
  usage: 'tabula new sql|run|FILE.xml',
  summary: 'Create an instance (of the sql or run app, or of a query in a file) and print its tag.',
  positionals: [1, 1],
  options: {},
  async run(ctx) {
    const arg = ctx.positionals[0]
    const what = arg === 'sql' || arg === 'run' ? arg : await readSource(ctx, arg)
    const instance = await ctx.withClient((client) => client.newInstance(what, {}, { signal: ctx.signal }))
    ctx.print(ctx.format === 'table' ? `${instance.tag}\n` : formatValue({ tag: instance.tag }, ctx.format))
  },
}

/** TAG: an instance's number, or sql / run for the session's own queries. */
function target(ctx: CommandContext, client: Client): ResultHandle {
  const tag = ctx.positionals[0]
  if (tag === 'sql' || tag === 'run') return client.results(tag)
  if (!/^\d+$/.test(tag)) throw new UsageError(`TAG is an instance number, or sql or run (got ${JSON.stringify(tag)}).`)
  return client.instance(tag)
}

const STOP: Command = {
  name: 'stop',
  usage: 'tabula stop TAG|sql|run [--force]',
  summary: 'Stop the query running in an instance (or your sql/run query), on whichever gateway runs it.',
  positionals: [1, 1],
  options: { force: { type: 'boolean', help: 'Stop harder (force_=1).' } },
  async run(ctx) {
    const stopped = await ctx.withClient((client) => target(ctx, client).stop({ force: ctx.options.force === true, signal: ctx.signal }))
    ctx.print(formatValue({ stopped }, ctx.format))
  },
}

const STATUS: Command = {
  name: 'status',
  usage: 'tabula status TAG|sql|run',
  summary: 'Show the progress of the query running in an instance (or your sql/run query).',
  positionals: [1, 1],
  options: {},
  async run(ctx) {
    const status = await ctx.withClient((client) => target(ctx, client).status({ signal: ctx.signal }))
    ctx.print(formatValue(status, ctx.format))
  },
}

export const COMMANDS: readonly Command[] = [LOGIN, LOGOUT, RUN, SQL, LS, UPLOAD, DOWNLOAD, DBM, NEW, STOP, STATUS]
