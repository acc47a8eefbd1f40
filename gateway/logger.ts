/**
 * The log function every part of the gateway is handed: `log({ level, msg, ...fields })`, one
 * JSON line per call. A type of its own, so a file that logs need not import the code that
 * writes logs (observe/logger.ts makes the real one; tests collect lines in an array).
 */
export type Logger = ((line: Record<string, unknown>) => void) & {
  /**
   * Whether a line at `level` would be written; absent means every line is. Lets a caller skip
   * building a line nobody reads (the access line of every successful request, say).
   */
  readonly writes?: (level: string) => boolean
}
