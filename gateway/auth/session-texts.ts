/**
 * Session records parsed once per stored text. Every request reads its session record from the
 * Store (so a logout or a password change on any gateway counts at once); what is kept here is
 * only the parse of a text already seen, with its token hashes as bytes ready for the constant-
 * time comparison. A text always parses to the same record, so an entry is never stale, and a
 * changed record (a joining login, a password change) is simply a new text.
 */
import { BoundedMap } from '../cache/bounded-map.js'
import type { SessionRecord } from './session-record.js'

export interface ParsedSession {
  readonly record: SessionRecord
  /** record.epwHashes decoded from hex. */
  readonly hashes: readonly Buffer[]
}

/** About one entry per live session this gateway serves; a dropped one is parsed again. */
const MAX_TEXTS = 10_000

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
