/**
 * Passwords are stored only as salted scrypt hashes: `scrypt$N$r$p$salt$hash` (base64 parts),
 * so the cost can be raised later without breaking stored hashes. scrypt runs on libuv's thread
 * pool, so hashing does not block the event loop.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto'

const COST = { N: 16384, r: 8, p: 1 } as const
const KEY_BYTES = 32

function derive(password: string, salt: Buffer, opts: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, KEY_BYTES, { ...opts, maxmem: 64 * 1024 * 1024 }, (err, key) => (err ? reject(err) : resolve(key))),
  )
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16)
  const key = await derive(password, salt, COST)
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64'), key.toString('base64')].join('$')
}

/** A hash of a random password: verifying against it costs the same as a real check. */
let dummyHash: Promise<string> | null = null

/**
 * True when the password matches the stored hash. With a null hash (unknown user) it still does
 * the full amount of work, so response time does not reveal which user ids exist.
 */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  dummyHash ??= hashPassword(randomBytes(16).toString('hex'))
  const encoded = stored ?? (await dummyHash)
  const [scheme, n, r, p, salt, hash] = encoded.split('$')
  if (scheme !== 'scrypt' || !salt || !hash) return false
  const expected = Buffer.from(hash, 'base64')
  const key = await derive(password, Buffer.from(salt, 'base64'), { N: Number(n), r: Number(r), p: Number(p) })
  return key.length === expected.length && timingSafeEqual(key, expected) && stored !== null
}

/** A random password of letters and digits (1010data passwords are alphanumeric). */
export function generatePassword(length = 16): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789'
  const bytes = randomBytes(length * 2)
  let out = ''
  // Rejection sampling keeps every character equally likely.
  for (const b of bytes) {
    if (b < 256 - (256 % alphabet.length)) out += alphabet[b % alphabet.length]
    if (out.length === length) break
  }
  return out.length === length ? out : generatePassword(length)
}
