/**
 * Profiles: named sets of defaults (service URL, user, API version, output format) kept in
 * `config.json` beside the saved session ($TABULA_CONFIG names another file), chosen with
 * `--profile NAME`, $TABULA_PROFILE, or the file's `default`. A setting comes from the first of:
 * the command line, the environment, the profile.
 *
 * Passwords: a profile holds none unless the user asks (`profile set --save-password`). The better
 * way is `passwordCommand`, a command whose output is the password (a keyring, `pass`, a vault),
 * so no password sits in the file. A file that does hold one must be readable by its owner alone
 * (mode 0600, as `profile set` writes it); otherwise its password is refused, as ssh refuses a
 * private key others may read.
 */
import { execFile } from 'node:child_process'
import { chmod, mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { UsageError } from './args.js'
import { configDir } from './credentials.js'

export interface Profile {
  readonly url?: string
  readonly user?: string
  readonly apiVersion?: string
  readonly format?: string
  /** A shell command that prints the password on stdout. */
  readonly passwordCommand?: string
  /** Only when the user asked for it to be stored. */
  readonly password?: string
}

export interface ConfigFile {
  readonly default?: string
  readonly profiles: Readonly<Record<string, Profile>>
}

const PROFILE_KEYS: readonly (keyof Profile)[] = ['url', 'user', 'apiVersion', 'format', 'passwordCommand', 'password']

/** A profile's name: what fits in a file name (the session of each profile has its own file). */
export const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/

export function configFile(env: NodeJS.ProcessEnv): string {
  return env.TABULA_CONFIG || join(configDir(env), 'config.json')
}

export async function loadConfig(env: NodeJS.ProcessEnv): Promise<{ file: string; config: ConfigFile; mode: number | null }> {
  const file = configFile(env)
  let text: string
  let mode: number | null = null
  try {
    text = await readFile(file, 'utf8')
    mode = (await stat(file)).mode & 0o777
  } catch (err) {
    // No file is no profiles; a file named by TABULA_CONFIG must exist.
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' && !env.TABULA_CONFIG) return { file, config: { profiles: {} }, mode }
    throw new UsageError(`Cannot read the config file ${file}: ${(err as Error).message}`)
  }
  return { file, config: parseConfig(text, file), mode }
}

/** The file's text, checked: an unknown key is a typo the user should hear about. */
export function parseConfig(text: string, file: string): ConfigFile {
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch (err) {
    throw new UsageError(`The config file ${file} is not valid JSON: ${(err as Error).message}`)
  }
  if (!isObject(raw)) throw new UsageError(`The config file ${file} must hold a JSON object: {"default": "NAME", "profiles": {"NAME": {...}}}.`)
  for (const key of Object.keys(raw))
    if (key !== 'default' && key !== 'profiles') throw new UsageError(`The config file ${file} has an unknown key "${key}" (known: default, profiles).`)
  if (raw.default !== undefined && typeof raw.default !== 'string') throw new UsageError(`In ${file}, "default" must be a profile name.`)
  const profiles: Record<string, Profile> = {}
  const given = raw.profiles ?? {}
  if (!isObject(given)) throw new UsageError(`In ${file}, "profiles" must be an object of profiles by name.`)
  for (const [name, p] of Object.entries(given)) {
    if (!PROFILE_NAME.test(name)) throw new UsageError(`In ${file}, "${name}" is not a valid profile name (letters, digits, _ . -).`)
    if (!isObject(p)) throw new UsageError(`In ${file}, the profile "${name}" must be an object.`)
    for (const [key, v] of Object.entries(p)) {
      if (!(PROFILE_KEYS as readonly string[]).includes(key))
        throw new UsageError(`In ${file}, the profile "${name}" has an unknown key "${key}" (known: ${PROFILE_KEYS.join(', ')}).`)
      if (typeof v !== 'string') throw new UsageError(`In ${file}, "${key}" of the profile "${name}" must be a string.`)
    }
    profiles[name] = p as Profile
  }
  return { default: raw.default as string | undefined, profiles }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

/** The profile in use: --profile, else $TABULA_PROFILE, else the file's default; none when there is no such choice. */
export interface ActiveProfile {
  readonly name: string | null
  readonly profile: Profile
  readonly file: string
  /** The file's permission bits (null when there is no file). */
  readonly mode: number | null
}

export async function activeProfile(flag: string | undefined, env: NodeJS.ProcessEnv): Promise<ActiveProfile> {
  const { file, config, mode } = await loadConfig(env)
  const explicit = flag ?? env.TABULA_PROFILE
  const name = explicit ?? config.default ?? null
  if (name === null) return { name: null, profile: {}, file, mode }
  const profile = config.profiles[name]
  if (!profile) {
    const known = Object.keys(config.profiles)
    throw new UsageError(
      `No profile "${name}" in ${file}${known.length > 0 ? ` (profiles: ${known.join(', ')})` : ''}. Add it with "tabula profile set ${name} --url URL".`,
    )
  }
  return { name, profile, file, mode }
}

/** The profile's password: from its passwordCommand, or stored (in a file only its owner may read); null when it has none. */
export async function profilePassword(active: ActiveProfile, signal?: AbortSignal): Promise<string | null> {
  const { profile } = active
  if (profile.passwordCommand) return runPasswordCommand(profile.passwordCommand, signal)
  if (profile.password === undefined) return null
  if (active.mode !== null && (active.mode & 0o077) !== 0)
    throw new UsageError(
      `${active.file} holds a password but others may read it (mode ${active.mode.toString(8)}): run "chmod 600 ${active.file}", or use passwordCommand instead.`,
    )
  return profile.password
}

function runPasswordCommand(command: string, signal?: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('/bin/sh', ['-c', command], { signal, timeout: 60_000, maxBuffer: 64 * 1024 }, (err, stdout) => {
      if (err) reject(new UsageError(`The profile's passwordCommand failed: ${err.message.split('\n')[0]}`))
      else resolve(stdout.replace(/\r?\n$/, ''))
    })
  })
}

/** Writes the config file whole, mode 0600 (it may hold a password), atomically. */
export async function saveConfig(file: string, config: ConfigFile): Promise<void> {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 })
  const tmp = `${file}.${process.pid}.tmp`
  await writeFile(tmp, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 })
  await chmod(tmp, 0o600)
  await rename(tmp, file)
}
