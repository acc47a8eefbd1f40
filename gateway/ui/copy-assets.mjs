// Copies the workbench's static files (stylesheet, icon) next to its compiled scripts:
//   node gateway/ui/copy-assets.mjs [outDir]     default dist/ui
// Part of `npm run build`; plain Node, so a fresh clone needs nothing else.
import { copyFile, mkdir } from 'node:fs/promises'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const STATIC_FILES = ['workbench.css', 'favicon.svg']
const here = fileURLToPath(new URL('.', import.meta.url))
const outDir = resolve(process.argv[2] ?? 'dist/ui')

await mkdir(outDir, { recursive: true })
for (const file of STATIC_FILES) await copyFile(resolve(here, file), resolve(outDir, file))
