/**
 * Plays a Dockerfile stage without Docker: each stage gets a folder standing for its filesystem
 * root, COPY copies from the build context (minus .dockerignore) or from an earlier stage's folder
 * with Docker's rules, WORKDIR and ENV are followed, and RUN runs its shell command in the
 * WORKDIR's folder.
 *
 * One substitution: `npm ci` becomes a symlink to this checkout's node_modules. The real command
 * would download every package (no network here, and minutes on CI) to produce what is already
 * installed from the same package-lock.json. What this cannot see is a dependency missing from
 * package.json itself; docker-context.test.ts checks that by reading the built server's imports.
 */
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { cp, mkdir, readFile, stat, symlink } from 'node:fs/promises'
import { basename, join, posix, relative, sep } from 'node:path'
import { promisify } from 'node:util'
import { envOf, type Instruction, type Stage } from './dockerfile.js'

const run = promisify(execFile)

export interface PlayedStage {
  /** The folder standing for the stage's `/`. */
  readonly root: string
  /** The WORKDIR in force at the end of the stage (a container path). */
  readonly workdir: string
  /** Variables set by ENV and ARG defaults. */
  readonly env: Readonly<Record<string, string>>
  /** What RUN printed, for a failing test to show. */
  readonly output: string[]
}

export interface PlayOptions {
  /** The build context: this checkout. */
  readonly context: string
  /** Folder to hold the stage's root. */
  readonly root: string
  /** Stages already played, by name, for COPY --from. */
  readonly stages?: Readonly<Record<string, PlayedStage>>
  /** Skip RUN lines (the final stage: its RUN installs packages and chowns /data). */
  readonly skipRun?: boolean
}

export async function playStage(stage: Stage, opts: PlayOptions): Promise<PlayedStage> {
  const ignored = await dockerignore(opts.context)
  const env: Record<string, string> = {}
  const output: string[] = []
  let workdir = '/'
  const inRoot = (containerPath: string): string => join(opts.root, posix.resolve(workdir, containerPath))
  for (const ins of stage.instructions) {
    switch (ins.keyword) {
      case 'WORKDIR':
        workdir = posix.resolve(workdir, ins.args[0])
        await mkdir(inRoot('.'), { recursive: true })
        break
      case 'ENV':
        Object.assign(env, envOf(ins))
        break
      case 'ARG': {
        const [name, value] = ins.args[0].split('=')
        if (value !== undefined && !(name in env)) env[name] = value
        break
      }
      case 'COPY':
        await copy(ins, opts, inRoot, ignored)
        break
      case 'RUN':
        if (!opts.skipRun) output.push(await runLine(ins, inRoot('.'), opts.context, env))
        break
      default:
      // USER, EXPOSE, HEALTHCHECK, CMD … describe the image; they change no file.
    }
  }
  return { root: opts.root, workdir, env, output }
}

async function copy(ins: Instruction, opts: PlayOptions, inRoot: (p: string) => string, ignored: (rel: string) => boolean): Promise<void> {
  const unknown = Object.keys(ins.flags).filter((f) => !['from', 'chown', 'chmod', 'link'].includes(f))
  if (unknown.length > 0) throw new Error(`Dockerfile line ${ins.line}: COPY --${unknown[0]} is not understood by this player`)
  const sources = ins.args.slice(0, -1)
  const dest = ins.args.at(-1)!
  const from = ins.flags.from
  const fromStage = from === undefined ? null : opts.stages?.[from]
  if (from !== undefined && !fromStage) throw new Error(`Dockerfile line ${ins.line}: COPY --from=${from} names no stage played before`)
  if (sources.length > 1 && !dest.endsWith('/')) throw new Error(`Dockerfile line ${ins.line}: COPY of several sources needs a destination ending in /`)
  for (const src of sources) {
    if (/[*?[]/.test(src)) throw new Error(`Dockerfile line ${ins.line}: wildcards in COPY sources are not understood by this player`)
    const origin = fromStage ? join(fromStage.root, posix.resolve(fromStage.workdir, src)) : join(opts.context, posix.normalize(src))
    if (!fromStage && ignored(src)) throw new Error(`Dockerfile line ${ins.line}: COPY ${src}, which .dockerignore leaves out of the context`)
    if (!existsSync(origin))
      throw new Error(`Dockerfile line ${ins.line}: COPY ${src}: no such file or folder in the ${fromStage ? `stage ${from}` : 'build context'}`)
    const isDir = (await stat(origin)).isDirectory()
    // A folder's contents go into dest; a file goes into dest/ or becomes dest.
    const target = inRoot(isDir || !dest.endsWith('/') ? dest : posix.join(dest, basename(src)))
    const filter = fromStage ? undefined : (path: string) => !ignored(relative(opts.context, path).split(sep).join('/'))
    await cp(origin, target, { recursive: true, filter })
  }
}

async function runLine(ins: Instruction, cwd: string, context: string, env: Record<string, string>): Promise<string> {
  const command = ins.args.length > 0 && ins.text.startsWith('[') ? ins.args.join(' ') : ins.text
  if (/^npm ci\b/.test(command)) {
    if (/&&|;|\|/.test(command))
      throw new Error(`Dockerfile line ${ins.line}: "${command}" mixes npm ci with other commands; this player replaces npm ci alone`)
    await symlink(join(context, 'node_modules'), join(cwd, 'node_modules'), 'dir')
    return `(npm ci replaced by a symlink to ${join(context, 'node_modules')})`
  }
  const { PATH = '', HOME = '' } = process.env
  try {
    const { stdout, stderr } = await run('sh', ['-c', command], { cwd, env: { PATH, HOME, ...env }, maxBuffer: 64 << 20 })
    return `$ ${command}\n${stdout}${stderr}`
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string }
    throw new Error(`Dockerfile line ${ins.line}: RUN ${command} failed:\n${e.stdout ?? ''}${e.stderr ?? e.message}`, { cause: err })
  }
}

/**
 * .dockerignore as Docker reads it: patterns relative to the context root, `*` and `?` within a
 * path segment, `**` across segments, and a pattern that matches a folder leaves out all of it.
 * Exceptions (`!pattern`) are refused rather than half-understood.
 */
async function dockerignore(context: string): Promise<(rel: string) => boolean> {
  const file = join(context, '.dockerignore')
  if (!existsSync(file)) return () => false
  const patterns = (await readFile(file, 'utf8'))
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'))
  const exception = patterns.find((p) => p.startsWith('!'))
  if (exception) throw new Error(`.dockerignore: exceptions (${exception}) are not understood by test/packaging/docker-stage.ts`)
  const regexes = patterns.map((p) => new RegExp(`^${globToRegex(posix.normalize(p).replace(/^\/+/, ''))}$`))
  return (rel) => {
    const parts = posix.normalize(rel).split('/')
    return parts.some((_, i) => regexes.some((re) => re.test(parts.slice(0, i + 1).join('/'))))
  }
}

function globToRegex(glob: string): string {
  let out = ''
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]
    if (c === '*' && glob[i + 1] === '*') {
      out += '.*'
      i++
    } else if (c === '*') out += '[^/]*'
    else if (c === '?') out += '[^/]'
    else out += c.replace(/[.+^${}()|[\]\\]/g, '\\$&')
  }
  return out
}
