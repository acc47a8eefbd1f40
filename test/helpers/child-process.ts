/**
 * The pieces every test helper that runs a server binary needs (redis-server, Sentinels): find the
 * binary, start it keeping the tail of its output for error messages, and stop it politely, then
 * firmly.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { accessSync, constants } from 'node:fs'
import { delimiter, join } from 'node:path'

/** The first executable `name` on PATH, else at `fallback`; null when there is none. */
export function findOnPath(name: string, fallback: string): string | null {
  const dirs = (process.env.PATH ?? '').split(delimiter).filter(Boolean)
  for (const candidate of [...dirs.map((dir) => join(dir, name)), fallback]) {
    try {
      accessSync(candidate, constants.X_OK)
      return candidate
    } catch {
      // not here; try the next place
    }
  }
  return null
}

export interface KeptChild {
  readonly child: ChildProcess
  /** Resolves when the process has exited, or when it never started. */
  readonly exited: Promise<void>
  /** The last `tailChars` characters it wrote to stdout and stderr, and a start error if any. */
  output(): string
  alive(): boolean
}

/** Starts a binary, reading its output (which also keeps a full pipe from blocking it). */
export function spawnKeepingOutput(binary: string, args: readonly string[], tailChars: number): KeptChild {
  const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  const keep = (chunk: Buffer): void => {
    output = (output + chunk.toString()).slice(-tailChars)
  }
  child.stdout!.on('data', keep)
  child.stderr!.on('data', keep)
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => resolve())
    child.once('error', (err) => {
      output += `\n${err.message}`
      // A process that never started emits no 'exit'.
      if (child.pid === undefined) resolve()
    })
  })
  const alive = (): boolean => child.pid !== undefined && child.exitCode === null && child.signalCode === null
  return { child, exited, output: () => output, alive }
}

/** SIGTERM, then SIGKILL if it has not exited within `graceMs`; resolves once it has exited. */
export async function terminate(kept: KeptChild, graceMs: number): Promise<void> {
  if (!kept.alive()) return
  kept.child.kill('SIGTERM')
  const timer = setTimeout(() => kept.child.kill('SIGKILL'), graceMs)
  await kept.exited
  clearTimeout(timer)
}
