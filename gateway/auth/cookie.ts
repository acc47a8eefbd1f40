/**
 * The session cookie: `session=<uid>|<sid>|<epw>`. Clients build it themselves from the login
 * reply, so it is authenticated from its three parts alone; other cookies are ignored.
 */
import type { Credentials } from './sessions.js'

export const COOKIE_NAME = 'session'

/** Every `session` cookie value in a Cookie header, in order (duplicates can come from paths). */
export function sessionCookieValues(header: string | undefined): string[] {
  if (!header || header.length > 16384) return []
  const out: string[] = []
  for (const part of header.split(';')) {
    const eq = part.indexOf('=')
    if (eq < 0 || part.slice(0, eq).trim() !== COOKIE_NAME) continue
    let value = part.slice(eq + 1).trim()
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1)
    // Some clients percent-encode the bars; a literal '%' never occurs in a valid value.
    if (value.includes('%')) {
      try {
        value = decodeURIComponent(value)
      } catch {
        continue
      }
    }
    out.push(value)
  }
  return out
}

export function parseSessionCookie(value: string): Credentials | null {
  const parts = value.split('|')
  if (parts.length !== 3 || parts.some((p) => p.length === 0)) return null
  const [uid, sid, epw] = parts
  return { uid, sid, epw }
}

export function formatSessionCookie(c: Credentials): string {
  return `${c.uid}|${c.sid}|${c.epw}`
}
