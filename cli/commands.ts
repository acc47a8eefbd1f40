/** The CLI's commands other than upload and download (transfer.ts). */
import { Client, type ResultHandle, type RowsResult } from '../client/index.js'
import { UsageError } from './args.js'
import type { Command, CommandContext } from './context.js'
import { credentialsFile, forgetSession, loadSession, saveSession } from './credentials.js'
import { binaryOutput, formatRows, formatValue } from './output.js'
import { PROFILE } from './profile-command.js'
import { promptHidden } from './prompt.js'
import { emitRows, QUERY_OPTIONS, runQuery, runQueryToBinary } from './query.js'
import { SHELL } from './shell/command.js'
import { readAll, readSource, queryText } from './source.js'
import { DOWNLOAD, UPLOAD } from './transfer.js'

/** Text given on the command line, or read from stdin for '-'. */
async function inlineOrStdin(ctx: CommandContext, arg: string): Promise<string> {
  return arg === '-' ? readAll(ctx.stdin) : arg
}

const LOGIN: Command = {
  name: 'login',
  usage: 'tabula login --url URL [--user UID] [--password-stdin]',
  summary: 'Log in and keep the session for the next commands.',
  details: [
    'The password comes from $TABULA_PASSWORD, from stdin with --password-stdin, or is asked for on',
    "the terminal (or from the profile's passwordCommand or stored password). Only the session",
    '(uid, sid, epw) and the URL are saved, in $TABULA_CONFIG_DIR/credentials.json (default',
    '~/.config/tabula/credentials.json; credentials.PROFILE.json with a profile), mode 0600; never',
    'the password. Without a saved session, commands log in by themselves when TABULA_UID and',
    'TABULA_PASSWORD (or the profile) give a user and a password.',
  ].join('\n'),
  positionals: [0, 0],
  options: {
    user: { type: 'string', short: 'u', arg: 'UID', help: 'User id (default: $TABULA_UID).' },
    'password-stdin': { type: 'boolean', help: 'Read the password from stdin (its first line).' },
    kill: { type: 'string', arg: 'K', help: 'possess (default: join your live session), yes (end it and start anew) or no.' },
  },
  async run(ctx) {
    const saved = await loadSession(ctx.env, ctx.profile.name)
    const p = ctx.profile.profile
    const url = (ctx.options.url as string | undefined) ?? ctx.env.TABULA_URL ?? p.url ?? saved?.url
    if (!url) throw new UsageError('No service URL: give --url URL, set TABULA_URL, or use a profile that has one.')
    const version =
      (ctx.options['api-version'] as string | undefined) ?? ctx.env.TABULA_API_VERSION ?? p.apiVersion ?? (saved?.url === url ? saved.version : 'v1')
    const client = new Client({ baseUrl: url, version })
    const uid = ctx.uid
    if (!uid) throw new UsageError('No user id: give --user UID, set TABULA_UID, or use a profile that has one.')
    let pw: string
    const known = ctx.options['password-stdin'] ? null : await ctx.password()
    if (ctx.options['password-stdin']) pw = (await readAll(ctx.stdin)).split(/\r?\n/)[0]
    else if (known !== null) pw = known
    else if ((ctx.stdin as NodeJS.ReadStream).isTTY) pw = await promptHidden(ctx, `Password for ${uid}: `)
    else throw new UsageError('No password: set TABULA_PASSWORD, pipe it with --password-stdin, or run on a terminal to be asked.')
    const kill = ctx.options.kill as 'possess' | 'yes' | 'no' | undefined
    if (kill !== undefined && !['possess', 'yes', 'no'].includes(kill)) throw new UsageError(`--kill takes possess, yes or no (got ${JSON.stringify(kill)}).`)
    const session = await client.login(uid, pw, { kill, signal: ctx.signal })
    const file = await saveSession({ url, version, ...session, saved: new Date().toISOString() }, ctx.env, ctx.profile.name)
    ctx.stderr.write(`Logged in to ${url} as ${session.uid}${ctx.profile.name === null ? '' : ` (profile ${ctx.profile.name})`}; session saved in ${file}.\n`)
  },
}

const LOGOUT: Command = {
  name: 'logout',
  usage: 'tabula logout',
  summary: 'End the session on the service and forget it here.',
  positionals: [0, 0],
  options: {},
  async run(ctx) {
    const saved = await loadSession(ctx.env, ctx.profile.name)
    if (saved)
      await ctx
        .withClient((client) => client.logout({ signal: ctx.signal }))
        .catch((err: unknown) => {
          // A session the service already ended is still forgotten here.
          if ((err as { code?: string }).code !== 'no_session') throw err
        })
    await forgetSession(ctx.env, ctx.profile.name)
    ctx.stderr.write(saved ? 'Logged out.\n' : `No saved session (${credentialsFile(ctx.env, ctx.profile.name)}).\n`)
  },
}

const RUN: Command = {
  name: 'run',
  usage: 'tabula run [FILE.xml | - | XML] [-f FILE] [-o FILE] [--save PATH [--replace]]',
  summary: 'Run a macro-language query from a file, the argument, or stdin, and print its result.',
  details: [
    'An argument that starts with < is the query itself; - or -f - reads stdin; with no argument, a',
    'piped stdin is read. On a terminal, the time and progress show on stderr while it runs; Ctrl-C',
    'stops the query on the service.',
  ].join('\n'),
  positionals: [0, 1],
  options: {
    file: { type: 'string', short: 'f', arg: 'FILE', help: 'Read the query from FILE (- for stdin).' },
    save: { type: 'string', arg: 'PATH', help: 'Also save the result as a table (savetable).' },
    replace: { type: 'boolean', help: 'With --save: replace an existing table.' },
    title: { type: 'string', arg: 'TEXT', help: "With --save: the table's title." },
    ...QUERY_OPTIONS,
  },
  async run(ctx) {
    const binary = binaryOutput(ctx.options.format, ctx.options.output as string | undefined)
    const text = await queryText(ctx, 'file-or-xml')
    const query = {
      lang: 'run' as const,
      text,
      savetable: ctx.options.save as string | undefined,
      replace: ctx.options.replace === true ? true : undefined,
      title: ctx.options.title as string | undefined,
    }
    if (binary !== null) return ctx.withClient((client) => runQueryToBinary(ctx, client, query, binary))
    const run = await ctx.withClient((client) => runQuery(ctx, client, query, ctx.format))
    await emitRows(ctx, run, ctx.format)
  },
}

const SQL: Command = {
  name: 'sql',
  usage: 'tabula sql ["SELECT ..." | -] [-f FILE] [-o FILE]',
  summary: 'Run one read-only SQL statement and print its result.',
  details: [
    'Tables are named by dotted path, e.g. select store, count(*) n from pub.demo.retail.item group by store.',
    'The statement is the argument, the file of -f FILE, or stdin (- , -f -, or a pipe with no argument).',
    'On a terminal, the time and progress show on stderr while it runs; Ctrl-C stops the query on the service.',
  ].join('\n'),
  positionals: [0, 1],
  options: {
    file: { type: 'string', short: 'f', arg: 'FILE', help: 'Read the statement from FILE (- for stdin).' },
    ...QUERY_OPTIONS,
  },
  async run(ctx) {
    const binary = binaryOutput(ctx.options.format, ctx.options.output as string | undefined)
    const text = await queryText(ctx, 'text')
    if (binary !== null) return ctx.withClient((client) => runQueryToBinary(ctx, client, { lang: 'sql', text }, binary))
    const run = await ctx.withClient((client) => runQuery(ctx, client, { lang: 'sql', text }, ctx.format))
    await emitRows(ctx, run, ctx.format)
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

export const COMMANDS: readonly Command[] = [LOGIN, LOGOUT, SHELL, RUN, SQL, LS, UPLOAD, DOWNLOAD, DBM, NEW, STOP, STATUS, PROFILE]
