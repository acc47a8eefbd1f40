// Builds the workbench into dist/ui (or the folder given):   node gateway/ui/build.mjs [outDir]
// Every script in gateway/ui/client becomes one self-contained ES module (esbuild bundles the
// page's own modules with the libraries it uses, such as the editor and the charts), and the
// static files (stylesheet, icon) are copied beside them. Type checking is tsc's job
// (`tsc -p gateway/ui`, in `npm run build`); esbuild only strips the types.
import { build } from 'esbuild'
import { copyFile, mkdir, readdir } from 'node:fs/promises'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const STATIC_FILES = ['workbench.css', 'favicon.svg']
const here = fileURLToPath(new URL('.', import.meta.url))
const outDir = resolve(process.argv[2] ?? 'dist/ui')
const clientDir = resolve(here, 'client')

// Each file is an entry of its own, not only the pages: the server's tests import the display
// rules (cells.js, result-view.js …) from the build the browser runs.
const entryPoints = (await readdir(clientDir)).filter((f) => f.endsWith('.ts')).map((f) => resolve(clientDir, f))

await mkdir(outDir, { recursive: true })
await build({
  entryPoints,
  outdir: outDir,
  bundle: true,
  format: 'esm',
  target: 'es2022',
  minify: true,
  // One file per page: no shared chunks, so the asset names stay the plain names the server allows.
  splitting: false,
  legalComments: 'none',
  logLevel: 'warning',
})
for (const file of STATIC_FILES) await copyFile(resolve(here, file), resolve(outDir, file))
