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
    kind: '64-bit integers',
    message: /2\^53|9007199254740991|CAST it to text|too large/i,
    reason:
      'integers past ±(2^53 − 1) cannot be stored or answered yet (issue 38 part 2): upload_table refuses them and an answer holding one is refused rather than rounded',
  },
]

/** The known limit a refusal's message falls under, if any. */
export function knownLimitOf(message: string): KnownLimit | undefined {
  return KNOWN_LIMITS.find((l) => l.message.test(message))
}
