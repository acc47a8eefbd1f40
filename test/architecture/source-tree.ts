/** Reading the product sources the architecture checks run over. */
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The repository root, from dist/test/architecture. */
const ROOT = fileURLToPath(new URL('../../../', import.meta.url))

/** Every TypeScript source (.ts, and .cts for CommonJS) under `folders`, by repository path ('/'-separated). */
export function readTree(folders: readonly string[]): Map<string, string> {
  const files = new Map<string, string>()
  for (const folder of folders) {
    for (const entry of readdirSync(join(ROOT, folder), { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !/\.c?ts$/.test(entry.name)) continue
      const path = join(entry.parentPath, entry.name)
      files.set(relative(ROOT, path).split(sep).join('/'), readFileSync(path, 'utf8'))
    }
  }
  return files
}
