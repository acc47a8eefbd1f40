// Completes the client package's type declarations in dist (run by `npm run build`, after tsc):
//   node scripts/ship-declarations.mjs [distDir]
//
// tsc writes a .d.ts beside each compiled .ts (tsconfig.client.json), but it never copies a
// hand-written declaration file such as shared/api-answers.d.ts, which the emitted
// dist/client/*.d.ts still import by relative path. Without the copy, an installed `tabula/client`
// would type those answers as `any` (or fail under skipLibCheck: false). So this follows every
// relative import of every .d.ts under dist/client and copies each hand-written one (a .d.ts in the
// sources at the same path) into dist. A copy already there with the same text is left alone, so a
// build with nothing changed rewrites nothing.
import { existsSync } from 'node:fs'
import { readFile, readdir, writeFile, mkdir } from 'node:fs/promises'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = resolve(fileURLToPath(new URL('..', import.meta.url)))
const dist = resolve(process.argv[2] ?? join(root, 'dist'))
const IMPORT = /(?:from|import)\s*['"](\.{1,2}\/[^'"]+)['"]/g

const start = (await readdir(join(dist, 'client'), { recursive: true })).filter((f) => f.endsWith('.d.ts')).map((f) => join(dist, 'client', f))
const seen = new Set(start)
const queue = [...start]
while (queue.length > 0) {
  const file = queue.shift()
  for (const [, spec] of (await readFile(file, 'utf8')).matchAll(IMPORT)) {
    const target = resolve(dirname(file), spec.replace(/\.js$/, '.d.ts'))
    if (seen.has(target)) continue
    seen.add(target)
    await shipDeclaration(target)
    queue.push(target)
  }
}

/** Copies root/<path>.d.ts to dist/<path>.d.ts when it is hand-written and the copy differs. */
async function shipDeclaration(target) {
  const source = join(root, relative(dist, target))
  if (!existsSync(source)) {
    if (existsSync(target)) return // emitted by tsc from a .ts source
    throw new Error(
      `${relative(dist, target)} is imported by the client's declarations, but tsc did not emit it and there is no ${relative(root, source)} to copy`,
    )
  }
  const text = await readFile(source)
  if (existsSync(target) && text.equals(await readFile(target))) return
  await mkdir(dirname(target), { recursive: true })
  await writeFile(target, text)
}
