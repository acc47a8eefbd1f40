/**
 * Where the CLI keeps its session: `credentials.json` in $TABULA_CONFIG_DIR, or in
 * $XDG_CONFIG_HOME/tabula, or ~/.config/tabula. Only the service URL and the session's three
 * parts (uid, sid, epw) are written, never the password, in a file only its owner may read or
 * write (mode 0600, in a folder of mode 0700). The session ends with `logout` or when the
 * service lets it expire; the file is then useless to anyone who finds it. Each profile
 * (config.ts) keeps its own session, in `credentials.<profile>.json`, so logging in with one
 * profile does not log another out.
 */
import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { homedir } from 'node:os'
import { join } from 'node:path'
import type { SessionParts } from '../client/index.js'

export interface SavedSession extends SessionParts {
  readonly url: string
  readonly version: string
  readonly saved: string
}

export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.TABULA_CONFIG_DIR) return env.TABULA_CONFIG_DIR
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'tabula')
}

export const credentialsFile = (env: NodeJS.ProcessEnv = process.env, profile: string | null = null): string =>
  join(configDir(env), profile === null ? 'credentials.json' : `credentials.${profile}.json`)

export async function loadSession(env: NodeJS.ProcessEnv = process.env, profile: string | null = null): Promise<SavedSession | null> {
  let text: string
  try {
    text = await readFile(credentialsFile(env, profile), 'utf8')
  } catch {
    return null
  }
  try {
    const s = JSON.parse(text) as Partial<SavedSession>
    if (typeof s.url === 'string' && typeof s.uid === 'string' && typeof s.sid === 'string' && typeof s.epw === 'string') {
      return { url: s.url, version: typeof s.version === 'string' ? s.version : 'v1', uid: s.uid, sid: s.sid, epw: s.epw, saved: String(s.saved ?? '') }
    }
  } catch {
    // A damaged file is treated as no session: `login` writes a new one.
  }
  return null
}

export async function saveSession(session: SavedSession, env: NodeJS.ProcessEnv = process.env, profile: string | null = null): Promise<string> {
  const dir = configDir(env)
  await mkdir(dir, { recursive: true, mode: 0o700 })
  const file = credentialsFile(env, profile)
  const tmp = `${file}.${process.pid}.tmp`
  // Created 0600 from the start, so the session is never readable by others, not even briefly.
  await writeFile(tmp, `${JSON.stringify(session, null, 2)}\n`, { mode: 0o600, flag: 'w' })
  await chmod(tmp, 0o600)
  await rename(tmp, file)
  return file
}

export async function forgetSession(env: NodeJS.ProcessEnv = process.env, profile: string | null = null): Promise<void> {
  await rm(credentialsFile(env, profile), { force: true })
}
