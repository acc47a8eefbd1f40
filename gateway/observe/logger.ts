/**
 * The service's log: one JSON object per line on stdout (pino), at the level of LOG_LEVEL.
 *
 * The rest of the gateway logs through the small Logger function type of gateway/logger.ts
 * (`log({ level, msg, ...fields })`), so callers and tests that collect lines in an array stay
 * as they are; pinoLog adapts that shape to a pino logger.
 *
 * Secrets are removed by pino's redaction before a line is written, as a second line of defence:
 * no caller is meant to log a password, a session token or a cookie in the first place.
 */
import { pino, type DestinationStream, type Level } from 'pino'
import type { Logger } from '../logger.js'

/** Levels LOG_LEVEL accepts, most to least verbose, and `silent`. */
export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const
export type LogLevel = (typeof LOG_LEVELS)[number]

const WRITE_LEVELS: ReadonlySet<string> = new Set<Level>(['trace', 'debug', 'info', 'warn', 'error', 'fatal'])

/** Field names that may hold a password or token, at the top of a line or one object down. */
const SECRET_FIELDS = ['pw', 'password', 'epw', 'new_password', 'old_password', 'cookie', 'authorization']

export const REDACTED = '[redacted]'

export const REDACT_PATHS: readonly string[] = [
  ...SECRET_FIELDS,
  ...SECRET_FIELDS.map((f) => `*.${f}`),
  'headers.cookie',
  'headers.authorization',
  'req.headers.cookie',
  'req.headers.authorization',
  'res.headers["set-cookie"]',
  '*.headers["set-cookie"]',
]

export interface LoggerOptions {
  readonly level: LogLevel
  /** Where lines go; stdout when absent (tests pass a stream that collects them). */
  readonly destination?: DestinationStream
}

export function createPino(opts: LoggerOptions): pino.Logger {
  return pino(
    {
      level: opts.level,
      redact: { paths: [...REDACT_PATHS], censor: REDACTED },
      // Level names ("info") and ISO times read better in `docker logs` than numbers.
      formatters: { level: (label) => ({ level: label }) },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    opts.destination ?? pino.destination({ dest: 1, sync: true }),
  )
}

/** The gateway's Logger writing through `logger`: `level` picks the method, `msg` the message. */
export function pinoLog(logger: pino.Logger): Logger {
  const log = (line: Record<string, unknown>): void => {
    const { level, msg, ...fields } = line
    const method = typeof level === 'string' && WRITE_LEVELS.has(level) ? (level as Level) : 'info'
    if (typeof msg === 'string') logger[method](fields, msg)
    else logger[method](fields)
  }
  const writes = (level: string): boolean => logger.isLevelEnabled(WRITE_LEVELS.has(level) ? level : 'info')
  return Object.assign(log, { writes })
}

/** The process's Logger: JSON lines on stdout at `level`. */
export function createLogger(opts: LoggerOptions): Logger {
  return pinoLog(createPino(opts))
}
