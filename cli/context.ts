/**
 * What every command gets: its parsed arguments, the streams, the environment, a signal that
 * fires on Ctrl-C, the profile in use (config.ts), and `withClient()`, a client logged in from
 * the saved session, or from the user and password that the environment or the profile give.
 *
 * Where each setting comes from, first match wins: the command line (--url, --api-version,
 * --format), the environment (TABULA_URL, TABULA_UID, TABULA_PASSWORD, TABULA_API_VERSION), the
 * profile, and last the saved session's URL.
 */
import { Client, TabulaError } from '../client/index.js'
import type { OptionSpecs } from './args.js'
import { activeProfile, profilePassword, type ActiveProfile } from './config.js'
import { loadSession } from './credentials.js'
import { outputFormat, type OutputFormat } from './output.js'

/** No session to use: exit code 3, like a session the service says is gone. */
export class NotLoggedIn extends Error {
  override readonly name = 'NotLoggedIn'
}

/** Ctrl-C ended the command: exit code 130, with a message that says what became of the query. */
export class Interrupted extends Error {
  override readonly name = 'Interrupted'
}

export interface Io {
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean }
  readonly stderr: NodeJS.WritableStream & { isTTY?: boolean }
  readonly stdin: NodeJS.ReadableStream
  readonly env: NodeJS.ProcessEnv
}

export interface CommandContext extends Io {
  readonly options: Record<string, string | boolean | undefined>
  readonly positionals: string[]
  readonly signal: AbortSignal
  readonly format: OutputFormat
  readonly profile: ActiveProfile
  /** The user id to log in as: --user, $TABULA_UID, the profile's. */
  readonly uid: string | undefined
  /** The password from $TABULA_PASSWORD or the profile (stored, or its passwordCommand's output); null when neither has one. */
  password(): Promise<string | null>
  /** Runs `fn` with a logged-in client; logs in again once from the environment if the session is gone. */
  withClient<T>(fn: (client: Client) => Promise<T>): Promise<T>
  print(text: string): void
}

export interface Command {
  readonly name: string
  readonly usage: string
  readonly summary: string
  /** More lines of help after the usage. */
  readonly details?: string
  readonly options: OptionSpecs
  /** How many positional arguments it takes. */
  readonly positionals: readonly [min: number, max: number]
  run(ctx: CommandContext): Promise<void>
}

/** Options every command takes. */
export const GLOBAL_OPTIONS: OptionSpecs = {
  url: { type: 'string', arg: 'URL', help: "The service, e.g. http://localhost:8080 (default: $TABULA_URL, the profile's, or the one you logged in to)." },
  'api-version': { type: 'string', arg: 'V', help: "The API version path segment (default: $TABULA_API_VERSION, the profile's, or v1)." },
  profile: { type: 'string', short: 'P', arg: 'NAME', help: 'Use this profile of the config file (default: $TABULA_PROFILE, or the file\'s "default").' },
  format: {
    type: 'string',
    arg: 'FMT',
    help: "Output: table, json, jsonl, csv; parquet or arrow for sql and run (default: -o FILE's extension, the profile's, table on a terminal, json otherwise).",
  },
  help: { type: 'boolean', short: 'h', help: 'Show this help.' },
}

/** The profile for these options and the context built on it. */
export async function loadContext(
  io: Io,
  options: Record<string, string | boolean | undefined>,
  positionals: string[],
  signal: AbortSignal,
): Promise<CommandContext> {
  const profile = await activeProfile(options.profile as string | undefined, io.env)
  return makeContext(io, options, positionals, signal, profile)
}

export function makeContext(
  io: Io,
  options: Record<string, string | boolean | undefined>,
  positionals: string[],
  signal: AbortSignal,
  profile: ActiveProfile = { name: null, profile: {}, file: '', mode: null },
): CommandContext {
  const env = io.env
  const p = profile.profile
  const uid = (options.user as string | undefined) ?? env.TABULA_UID ?? p.user
  let password: Promise<string | null> | undefined
  // Asked once, and only when needed: a passwordCommand may prompt or unlock a keyring.
  const getPassword = (): Promise<string | null> =>
    (password ??= env.TABULA_PASSWORD !== undefined ? Promise.resolve(env.TABULA_PASSWORD) : profilePassword(profile, signal))
  const relogin = async (client: Client): Promise<boolean> => {
    if (!uid) return false
    const pw = await getPassword()
    if (pw === null) return false
    await client.login(uid, pw, { signal })
    return true
  }
  const connect = async (): Promise<{ client: Client }> => {
    const saved = await loadSession(env, profile.name)
    const url = (options.url as string | undefined) ?? env.TABULA_URL ?? p.url ?? saved?.url
    if (!url) throw new NotLoggedIn('Not logged in: run "tabula login --url URL", or set TABULA_URL, TABULA_UID and TABULA_PASSWORD.')
    const version = (options['api-version'] as string | undefined) ?? env.TABULA_API_VERSION ?? p.apiVersion ?? saved?.version ?? 'v1'
    const client = new Client({ baseUrl: url, version })
    if (saved && client.apiBase === new Client({ baseUrl: saved.url, version: saved.version }).apiBase) {
      client.session = saved
      return { client }
    }
    if (await relogin(client)) return { client }
    throw new NotLoggedIn(
      saved
        ? `Logged in to ${saved.url}, not ${url}: run "tabula login --url ${url}".`
        : `Not logged in to ${url}: run "tabula login", or set TABULA_UID and TABULA_PASSWORD.`,
    )
  }
  let connected: Promise<{ client: Client }> | undefined
  return {
    ...io,
    options,
    positionals,
    signal,
    profile,
    uid,
    password: getPassword,
    // Worked out when a command prints: upload and download read --format as their file's format.
    get format() {
      return outputFormat(options.format, io.stdout.isTTY === true, options.output as string | undefined, p.format)
    },
    async withClient(fn) {
      // One client per command: the shell runs many statements on the session it found first.
      // A failed connection is not kept: the next statement of the shell tries again.
      const { client } = await (connected ??= connect().catch((err: unknown) => {
        connected = undefined
        throw err
      }))
      try {
        return await fn(client)
      } catch (err) {
        // A refused session means nothing ran, so trying once more after a fresh login is safe.
        if (!(err instanceof TabulaError && err.code === 'no_session') || !(await relogin(client))) throw err
        return fn(client)
      }
    },
    print(text) {
      io.stdout.write(text)
    },
  }
}
