#!/usr/bin/env node
/**
 * `tabula`: the command-line tool. `tabula help` lists the commands, `tabula COMMAND --help`
 * explains one. Exit codes, for scripts:
 *
 *   0    done
 *   1    the API refused the request (a 4xx: bad query, no such table, no permission…)
 *   2    usage error (unknown command or option, missing argument, unreadable file)
 *   3    not logged in, or the session has expired: run `tabula login`
 *   4    the service could not be reached, or failed (5xx)
 *   130  interrupted (Ctrl-C); a running query or upload is stopped on the service
 */
import { realpathSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { TabulaError } from '../client/index.js'
import { describeOptions, parseArgs, UsageError } from './args.js'
import { COMMANDS } from './commands.js'
import { GLOBAL_OPTIONS, Interrupted, loadContext, NotLoggedIn, type Command, type Io } from './context.js'
import { ShellFailed } from './shell/command.js'
import { version } from './version.js'

export const EXIT = { OK: 0, API: 1, USAGE: 2, SESSION: 3, SERVICE: 4, INTERRUPTED: 130 } as const

const EXIT_CODES_HELP = `Exit codes: 0 ok, 1 API error (4xx), 2 usage error, 3 not logged in or session expired,
4 connection or server error (5xx), 130 interrupted.`

function mainHelp(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length))
  return [
    'Usage: tabula COMMAND [ARGS] [OPTIONS]      tabula shell: an interactive shell      tabula --version',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Options of every command:',
    describeOptions(GLOBAL_OPTIONS),
    '',
    'Environment: TABULA_URL, TABULA_UID, TABULA_PASSWORD, TABULA_API_VERSION, TABULA_PROFILE, TABULA_CONFIG,',
    'TABULA_CONFIG_DIR. Settings come from the command line, then the environment, then the profile.',
    EXIT_CODES_HELP,
    'Run "tabula COMMAND --help" for a command\'s own help.',
    '',
  ].join('\n')
}

function commandHelp(c: Command): string {
  const own = Object.keys(c.options).length > 0 ? ['', 'Options:', describeOptions(c.options)] : []
  return [
    `Usage: ${c.usage}`,
    '',
    c.summary,
    ...(c.details ? ['', c.details] : []),
    ...own,
    '',
    'Options of every command:',
    describeOptions(GLOBAL_OPTIONS),
    '',
    EXIT_CODES_HELP,
    '',
  ].join('\n')
}

/** The exit code for an error, and the message to print. */
export function classify(err: unknown, signal: AbortSignal): { code: number; message: string } {
  if (err instanceof Interrupted) return { code: EXIT.INTERRUPTED, message: err.message }
  if (signal.aborted) return { code: EXIT.INTERRUPTED, message: 'Interrupted.' }
  if (err instanceof UsageError) return { code: EXIT.USAGE, message: `${err.message}\nRun "tabula help" for usage.` }
  if (err instanceof ShellFailed) return { code: EXIT.API, message: err.message }
  if (err instanceof NotLoggedIn) return { code: EXIT.SESSION, message: err.message }
  if (err instanceof TabulaError) {
    const id = err.requestId ? ` (request ${err.requestId})` : ''
    if (err.code === 'no_session') return { code: EXIT.SESSION, message: `${err.message} Run "tabula login".` }
    if (err.code === 'aborted') return { code: EXIT.INTERRUPTED, message: 'Interrupted.' }
    if (err.status === 0 || err.status >= 500) return { code: EXIT.SERVICE, message: `${err.message}${id}` }
    return { code: EXIT.API, message: `${err.message} [${err.code}]` }
  }
  if ((err as Error)?.name === 'AbortError') return { code: EXIT.INTERRUPTED, message: 'Interrupted.' }
  return { code: EXIT.USAGE, message: err instanceof Error ? err.message : String(err) }
}

export async function main(argv: readonly string[], io: Io, signal: AbortSignal): Promise<number> {
  const [name, ...rest] = argv
  if (name === '--version' || name === '-V' || name === 'version') {
    io.stdout.write(`tabula ${await version()}\n`)
    return EXIT.OK
  }
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    const which = name === 'help' ? COMMANDS.find((c) => c.name === rest[0]) : undefined
    if (name === 'help' && rest[0] !== undefined && !which) {
      io.stderr.write(`Unknown command "${rest[0]}".\n${mainHelp()}`)
      return EXIT.USAGE
    }
    io.stdout.write(which ? commandHelp(which) : mainHelp())
    return name === undefined ? EXIT.USAGE : EXIT.OK
  }
  const command = COMMANDS.find((c) => c.name === name)
  if (!command) {
    io.stderr.write(`Unknown command "${name}". Commands: ${COMMANDS.map((c) => c.name).join(', ')}.\nRun "tabula help" for usage.\n`)
    return EXIT.USAGE
  }
  try {
    const { options, positionals } = parseArgs(rest, { ...GLOBAL_OPTIONS, ...command.options })
    if (options.help) {
      io.stdout.write(commandHelp(command))
      return EXIT.OK
    }
    const [min, max] = command.positionals
    if (positionals.length < min || positionals.length > max) {
      throw new UsageError(`${positionals.length < min ? 'Missing arguments' : 'Too many arguments'}. Usage: ${command.usage}`)
    }
    await command.run(await loadContext(io, options, positionals, signal))
    return EXIT.OK
  } catch (err) {
    const { code, message } = classify(err, signal)
    io.stderr.write(`tabula ${name}: ${message}\n`)
    return code
  }
}

/**
 * Whether node was started on this file: directly, or through the link npm makes for the bin
 * (`node_modules/.bin/tabula`, `<prefix>/bin/tabula`), whatever that link is called.
 */
function isEntryPoint(): boolean {
  const invoked = process.argv[1]
  if (!invoked) return false
  try {
    return realpathSync(invoked) === realpathSync(fileURLToPath(import.meta.url))
  } catch {
    return false
  }
}

// Run when executed (not when a test imports this module).
if (isEntryPoint()) {
  const controller = new AbortController()
  let interrupts = 0
  process.on('SIGINT', () => {
    // The first Ctrl-C stops the request (the service then stops its query or the upload is
    // aborted); a second one leaves at once.
    if (++interrupts > 1) {
      process.stderr.write('\nInterrupted again: leaving without waiting for the service.\n')
      process.exit(EXIT.INTERRUPTED)
    }
    if (process.stderr.isTTY) process.stderr.write('\nStopping… (Ctrl-C again to leave at once)\n')
    controller.abort()
  })
  main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env }, controller.signal).then(
    (code) => {
      process.exitCode = code
      // Ends stdin reads and keep-alive sockets that would otherwise hold the process open.
      process.stdout.write('', () => process.exit(code))
    },
    (err: unknown) => {
      process.stderr.write(`tabula: ${err instanceof Error ? err.stack : String(err)}\n`)
      process.exit(EXIT.SERVICE)
    },
  )
}
