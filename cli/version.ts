/**
 * The version `tabula --version` prints: the `version` of the package.json this file was
 * installed with. The compiled file is dist/cli/version.js, two folders below it, in a checkout
 * and in an installed package alike.
 */
import { readFile } from 'node:fs/promises'

export async function version(): Promise<string> {
  const file = new URL('../../package.json', import.meta.url)
  const pkg = JSON.parse(await readFile(file, 'utf8')) as { name?: string; version?: string }
  if (pkg.name !== 'tabula' || typeof pkg.version !== 'string') throw new Error(`${file.pathname} is not tabula's package.json.`)
  return pkg.version
}
