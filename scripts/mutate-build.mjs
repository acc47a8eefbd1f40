/**
 * The build of a mutation sandbox (scripts/mutate.mjs): tsc over the whole project, keeping its
 * output when there are type errors. A mutant may change a type other files see (an inferred
 * return type), which tsc reports although the JavaScript it emits runs; a mutant that truly
 * cannot run is caught by the tests instead. Fails only when tsc emitted nothing.
 */
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'

// Found the way Node finds packages: the sandbox may have no node_modules of its own.
const tscPath = createRequire(import.meta.url).resolve('typescript/bin/tsc')

const tsc = spawnSync(process.execPath, [tscPath, '-p', 'tsconfig.json'], { stdio: ['ignore', 'ignore', 'inherit'] })
if (tsc.error) throw tsc.error
if (!existsSync('dist/test/run-tests.js')) {
  console.error('mutate-build: tsc emitted nothing')
  process.exit(1)
}
