/**
 * What a session check computes from a text it has seen before, kept so the next request with the
 * same text skips the work: the parse of a stored session record, and the SHA-256 of a presented
 * epw token. Both are pure functions of their text, so an entry is never stale; both maps are
 * bounded, so texts seen once (a guessing client, say) only push older ones out and cost their
 * work each time, as without the memo.
 *
 * Every request still reads its session record from the Store (so a logout or a password change
 * on any gateway counts at once); a changed record (a joining login, a password change) is simply
 * a new text.
 */
import { createHash } from 'node:crypto'
import { BoundedMap } from '../cache/bounded-map.js'
import type { SessionRecord } from './session-record.js'

export interface ParsedSession {
  readonly record: SessionRecord
  /** record.epwHashes decoded from hex, ready for the constant-time comparison. */
  readonly hashes: readonly Buffer[]
}

/** About one entry per live session this gateway serves; a dropped one is parsed again. */
const MAX_TEXTS = 10_000
const MAX_TOKENS = 10_000

export const sha256Hex = (s: string): string => createHash('sha256').update(s).digest('hex')

/** Session records parsed once per stored text. */
export class SessionTexts {
  readonly #parsed = new BoundedMap<string, ParsedSession>(MAX_TEXTS)

  parse(text: string): ParsedSession {
    let hit = this.#parsed.get(text)
    if (hit === undefined) {
      const record = JSON.parse(text) as SessionRecord
      hit = Object.freeze({
        record: Object.freeze({ ...record, epwHashes: Object.freeze([...record.epwHashes]) }),
        hashes: Object.freeze(record.epwHashes.map((h) => Buffer.from(h, 'hex'))),
      })
      this.#parsed.set(text, hit)
    }
    return hit
  }
}

/** The hash of a presented token, once per token: a client sends the same one with every request, and the session record lists its hash. */
export class TokenHashes {
  readonly #hashes = new BoundedMap<string, { hex: string; bytes: Buffer }>(MAX_TOKENS)

  of(epw: string): { readonly hex: string; readonly bytes: Buffer } {
    let hit = this.#hashes.get(epw)
    if (hit === undefined) {
      const hex = sha256Hex(epw)
      hit = { hex, bytes: Buffer.from(hex, 'hex') }
      this.#hashes.set(epw, hit)
    }
    return hit
  }
}
