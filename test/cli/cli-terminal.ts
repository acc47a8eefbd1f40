/**
 * The CLI on a terminal, for the tests of what it only does there (the shell's prompt, Tab and
 * history, the progress line): util-linux `script` gives it a pseudo-terminal as stdin, stdout
 * and stderr, and passes on what the test writes. Without `script` these tests are skipped, and
 * fail under CI=true, where a skipped terminal suite would pass for a tested one.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { CLI } from '../client/helpers.js'

const SCRIPT_CANDIDATES = ['/usr/bin/script', '/bin/script']

/** The `script` binary, or null (then the caller skips, or fails on CI). */
export function scriptBinary(): string | null {
  const found = SCRIPT_CANDIDATES.find((p) => existsSync(p)) ?? null
  if (!found && process.env.CI === 'true') throw new Error('CI=true but util-linux `script` is not installed: the terminal tests need it.')
  return found
}

const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`

/** Escape sequences of the terminal (cursor moves, line clears) taken out, to read the text. */
// eslint-disable-next-line no-control-regex -- the escape character is what this removes
export const plain = (s: string): string => s.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '')

export class Terminal {
  readonly child: ChildProcess
  private text = ''
  private readonly closed: Promise<number | null>

  constructor(script: string, args: readonly string[], env: Record<string, string>) {
    const command = [process.execPath, CLI, ...args].map(quote).join(' ')
    this.child = spawn(script, ['-qfec', command, '/dev/null'], {
      env: { PATH: process.env.PATH ?? '', SHELL: '/bin/sh', TERM: 'xterm', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    this.child.stdout!.on('data', (d) => (this.text += d))
    this.child.stderr!.on('data', (d) => (this.text += d))
    this.closed = new Promise((resolve) => this.child.on('close', (code) => resolve(code)))
  }

  /** Everything the terminal showed (and echoed) so far, escape sequences and all. */
  get output(): string {
    return this.text
  }

  /** Types `keys`; each write arrives as one burst, as a person's keystroke would. */
  type(keys: string): void {
    this.child.stdin!.write(keys)
  }

  /**
   * Waits until the text shown after offset `from` (of the text without escape sequences)
   * matches, and answers the offset just past the match, to wait for what comes after it. Fails
   * with what was shown when it does not match in time.
   */
  async waitFor(pattern: RegExp | string, from = 0, timeoutMs = 15_000): Promise<number> {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const seen = plain(this.text).slice(from)
      if (typeof pattern === 'string') {
        const i = seen.indexOf(pattern)
        if (i !== -1) return from + i + pattern.length
      } else {
        const m = pattern.exec(seen)
        if (m) return from + m.index + m[0].length
      }
      if (Date.now() > deadline) throw new Error(`The terminal never showed ${String(pattern)}; after offset ${from} it showed:\n${seen}`)
      await new Promise((r) => setTimeout(r, 50))
    }
  }

  /** The exit code, once the CLI and `script` have ended. */
  exit(): Promise<number | null> {
    return this.closed
  }

  kill(): void {
    this.child.kill('SIGKILL')
  }
}
