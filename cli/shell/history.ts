/**
 * The shell's history: `history` in the config folder, one statement a line, newest last, at
 * most HISTORY_SIZE of them, readable by its owner alone (queries name tables and values). A
 * statement typed over several lines is kept as one line, so Up brings all of it back.
 */
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { configDir } from '../credentials.js'

export const HISTORY_SIZE = 1000

export const historyFile = (env: NodeJS.ProcessEnv): string => env.TABULA_HISTORY || join(configDir(env), 'history')

/** The saved history, newest first (as readline takes it). */
export async function loadHistory(file: string): Promise<string[]> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch {
    return []
  }
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .slice(-HISTORY_SIZE)
    .reverse()
}

/** Writes `newestFirst` (readline's order), bounded, oldest line first in the file. */
export async function saveHistory(file: string, newestFirst: readonly string[]): Promise<void> {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 })
  const lines = newestFirst.slice(0, HISTORY_SIZE).reverse()
  const tmp = `${file}.${process.pid}.tmp`
  await writeFile(tmp, lines.length > 0 ? `${lines.join('\n')}\n` : '', { mode: 0o600 })
  await chmod(tmp, 0o600)
  await rename(tmp, file)
}

/**
 * Replaces the lines of a statement typed over several lines, which readline put in its history
 * one by one (newest first), by the whole statement on one line. Only lines still at the top and
 * equal to what was typed are taken out, so nothing else is ever lost.
 */
export function foldStatement(history: string[], lines: readonly string[], statement: string): void {
  for (let k = lines.length - 1; k >= 0 && history.length > 0; k--) {
    if (history[0] === lines[k]) history.shift()
  }
  const one = statement.replace(/\s*\n\s*/g, ' ').trim()
  if (one === '') return
  const dup = history.indexOf(one)
  if (dup !== -1) history.splice(dup, 1)
  history.unshift(one)
  if (history.length > HISTORY_SIZE) history.length = HISTORY_SIZE
}
