/**
 * What every command gets: its parsed arguments, the streams, the environment, a signal that
 * fires on Ctrl-C, and `session()`, the client logged in from the saved session or from
 * TABULA_UID/TABULA_PASSWORD.
 */
import { Client, TabulaError } from '../client/index.js'
import type { OptionSpecs } from './args.js'
import { loadSession } from './credentials.js'
import { outputFormat, type OutputFormat } from './output.js'

/** No session to use: exit code 3, like a session the service says is gone. */
export class NotLoggedIn extends Error {
  override readonly name = 'NotLoggedIn'
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
  url: { type: 'string', arg: 'URL', help: 'The service, e.g. http://localhost:8080 (default: $TABULA_URL, or the one you logged in to).' },
  'api-version': { type: 'string', arg: 'V', help: 'The API version path segment (default: $TABULA_API_VERSION or v1).' },
  format: { type: 'string', arg: 'FMT', help: 'Output: table, json or csv (default: table on a terminal, json otherwise).' },
  help: { type: 'boolean', short: 'h', help: 'Show this help.' },
}

export function makeContext(io: Io, options: Record<string, string | boolean | undefined>, positionals: string[], signal: AbortSignal): CommandContext {
  const env = io.env
  const connect = async (): Promise<{ client: Client; fromEnv: boolean }> => {
    const saved = await loadSession(env)
    const url = (options.url as string | undefined) ?? env.TABULA_URL ?? saved?.url
    if (!url) throw new NotLoggedIn('Not logged in: run "tabula login --url URL", or set TABULA_URL, TABULA_UID and TABULA_PASSWORD.')
    const version = (options['api-version'] as string | undefined) ?? env.TABULA_API_VERSION ?? saved?.version ?? 'v1'
    const client = new Client({ baseUrl: url, version })
    if (saved && client.apiBase === new Client({ baseUrl: saved.url, version: saved.version }).apiBase) {
      client.session = saved
      return { client, fromEnv: false }
    }
    if (env.TABULA_UID && env.TABULA_PASSWORD) {
      await client.login(env.TABULA_UID, env.TABULA_PASSWORD, { signal })
      return { client, fromEnv: true }
    }
    throw new NotLoggedIn(
      saved
        ? `Logged in to ${saved.url}, not ${url}: run "tabula login --url ${url}".`
        : `Not logged in to ${url}: run "tabula login", or set TABULA_UID and TABULA_PASSWORD.`,
    )
  }
  return {
    ...io,
    options,
    positionals,
    signal,
    format: outputFormat(options.format, io.stdout.isTTY === true),
    async withClient(fn) {
      const { client, fromEnv } = await connect()
      try {
        return await fn(client)
      } catch (err) {
        // A refused session means nothing ran, so trying once more after a fresh login is safe.
        if (!(err instanceof TabulaError && err.code === 'no_session') || fromEnv || !env.TABULA_UID || !env.TABULA_PASSWORD) throw err
        await client.login(env.TABULA_UID, env.TABULA_PASSWORD, { signal })
        return fn(client)
      }
    },
    print(text) {
      io.stdout.write(text)
    },
  }
}
