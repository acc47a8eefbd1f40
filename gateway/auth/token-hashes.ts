/**
 * The SHA-256 of a presented epw token, computed once per token. A client sends the same token
 * with every request, and the hash is what the session record lists (sessions.ts). A pure
 * function of the token, so an entry is never stale; the map is bounded, so tokens sent once
 * (a guessing client, say) only push older ones out, and cost a hash each as before.
 */
import { createHash } from 'node:crypto'
import { BoundedMap } from '../cache/bounded-map.js'

const MAX_TOKENS = 10_000

export const sha256Hex = (s: string): string => createHash('sha256').update(s).digest('hex')

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
