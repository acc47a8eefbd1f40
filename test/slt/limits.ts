/**
 * The refusals (4xx) of api/sql that are known limits of tabula, each with its reason. A refusal
 * of the sqllogictest corpus that matches none of these fails `npm test`: a new refusal is either
 * a bug or a limit to document here (and in docs/sql.md).
 */
export interface KnownLimit {
  /** Short name, printed in the summaries. */
  readonly kind: string
  /** Matched against the refusal's message. */
  readonly message: RegExp
  readonly reason: string
}

export const KNOWN_LIMITS: readonly KnownLimit[] = [
  {
    kind: '-2^63',
    message: /-9223372036854775808/,
    reason: 'the 64-bit integer −2^63 is the N/A of a big-integer (j) column, so a table or an answer holding it is refused rather than shown as N/A',
  },
]

/** The known limit a refusal's message falls under, if any. */
export function knownLimitOf(message: string): KnownLimit | undefined {
  return KNOWN_LIMITS.find((l) => l.message.test(message))
}
