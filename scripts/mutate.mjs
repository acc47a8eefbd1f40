/**
 * Mutation testing on demand (StrykerJS):
 *   npm run mutate -- <folder> [--files <glob>,…] [--tests <glob>,…] [--sample P [--seed S]]
 *                              [--max-minutes N]
 * --files narrows the mutants to some files of the folder (a whole folder can take hours);
 * --sample tests a uniform random P % of the mutants (scripts/mutate-sample.mjs) and scores those;
 * --seed (an integer) picks another sample.
 *
 * Stryker copies the repository to a sandbox, puts every mutant of the folder's TypeScript into it
 * at once behind a switch, builds it with tsc, and for each mutant runs the folder's compiled
 * tests with mocha (stopping at the first failure), reporting which mutants no test noticed. The
 * tests that matter for a folder are named below; a folder not listed needs --tests.
 *
 * The tests run as a command (Stryker's command runner: StrykerJS 10 and its mocha runner need
 * Node 22 and mocha below 12); the active mutant reaches them in the environment, so worker
 * threads run it too. Without per-test coverage every mutant runs the folder's tests: pick the
 * fast unit tests that call the folder directly.
 *
 * Writes reports/mutation/<name>.json and .html (.html only for a whole run: it would show the
 * mutants outside a sample as survivors), and <name>.summary.json with the score and every
 * survivor; prints the score (killed and timed-out mutants over all tested).
 */
import { Stryker } from '@stryker-mutator/core'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { setTimeout } from 'node:timers'
import { checkWrapperAgrees, inSample, sampleBasisPoints, sampleMargin } from './mutate-sample.mjs'

/** The compiled tests that exercise each folder directly. */
const TESTS = {
  'engine/columns': [
    'dist/test/engine/columns.test.js',
    'dist/test/engine/key-partitions.test.js',
    'dist/test/engine/distinct-per-group.test.js',
    'dist/test/engine/median-per-group.test.js',
    'dist/test/engine/select-through-index.test.js',
    'dist/test/engine/asof-lookup.test.js',
    'dist/test/engine/columns-edges.test.js',
    'dist/test/engine/sort-full-precision.test.js',
    // The group kernels' key slots (key-slots.ts) are exercised by the tabulations that use them.
    'dist/test/engine/tabu-fast.test.js',
  ],
  'engine/functions': ['dist/test/engine/functions-*.test.js', 'dist/test/engine/big-integers.test.js', 'dist/test/engine/group-arguments.test.js'],
  'gateway/format': [
    'dist/test/gateway/format.test.js',
    'dist/test/gateway/format-edges.test.js',
    'dist/test/gateway/display-format.test.js',
    'dist/test/gateway/results-codec.test.js',
  ],
  'gateway/dbm': [
    'dist/test/gateway/dbm-params.test.js',
    'dist/test/gateway/dbm*.test.js',
    'dist/test/gateway/make-dir-readers.test.js',
    // Chunked uploads (gateway/dbm/uploads/) are driven through the node client.
    'dist/test/client/chunked-lifecycle.test.js',
    'dist/test/client/chunked-body.test.js',
  ],
}

function parseArgs(argv) {
  const [folder, ...rest] = argv
  if (!folder || folder.startsWith('-')) {
    throw new Error(`Name a folder: npm run mutate -- <folder> [--tests <glob>,…] [--max-minutes N]; with tests known for ${Object.keys(TESTS).join(', ')}.`)
  }
  const options = { folder: folder.replace(/\/+$/, ''), files: null, tests: null, maxMinutes: 0, sample: 100, seed: 1 }
  for (let i = 0; i < rest.length; i += 2) {
    if (rest[i] === '--tests') options.tests = rest[i + 1].split(',')
    else if (rest[i] === '--files') options.files = rest[i + 1].split(',')
    else if (rest[i] === '--max-minutes') options.maxMinutes = Number(rest[i + 1])
    else if (rest[i] === '--sample') options.sample = Number(rest[i + 1])
    else if (rest[i] === '--seed') options.seed = Number(rest[i + 1])
    else throw new Error(`Unknown option ${rest[i]}.`)
  }
  options.tests ??= TESTS[options.folder] ?? null
  if (!(options.sample >= 0.01 && options.sample <= 100)) throw new Error('--sample is a percentage from 0.01 to 100.')
  if (!Number.isSafeInteger(options.seed) || options.seed < 0) throw new Error('--seed is a whole number.')
  if (!options.tests) throw new Error(`No tests are known for ${options.folder}: give them with --tests dist/test/…/*.test.js.`)
  return options
}

const { folder, files, tests, maxMinutes, sample, seed } = parseArgs(process.argv.slice(2))
const sampled = sample < 100
const name = [folder, ...(files ?? []), ...(sampled ? [`sample${sample}`] : [])].join('-').replace(/[^A-Za-z0-9.-]+/g, '-')
mkdirSync('reports/mutation', { recursive: true })

const mocha = ['node node_modules/mocha/bin/mocha.js --no-config --no-package --bail --timeout 20000', ...tests].join(' ')
// The wrapper reads the sample from the environment Stryker passes on to the test command.
const basisPoints = sampleBasisPoints(sample)
process.env.MUTATE_SAMPLE_BP = String(basisPoints)
process.env.MUTATE_SEED = String(seed)
if (sampled) checkWrapperAgrees(basisPoints, seed)
const command = sampled ? `sh scripts/mutate-sample.sh ${mocha}` : mocha

const stryker = new Stryker({
  testRunner: 'command',
  commandRunner: { command },
  mutate: files ? files.map((f) => `${folder}/${f}`) : [`${folder}/**/*.ts`, `!${folder}/**/*.d.ts`],
  // The sandbox gets sources only; tsc builds them there, mutants included. A mutant can change a
  // type that other files see (an inferred return type), so type errors are expected: tsc emits
  // all the same, and a mutant that truly cannot run is caught by the tests.
  ignorePatterns: ['dist', 'data', 'reports', 'test/artifacts', '.build-*', 'docs', 'bench/results'],
  buildCommand: 'node scripts/mutate-build.mjs',
  coverageAnalysis: 'off',
  // Stryker marks mutated files @ts-nocheck: a mutant may not type-check and must still build.
  disableTypeChecks: `${folder}/**/*.ts`,
  concurrency: Number(process.env.MUTATE_CONCURRENCY ?? 2),
  timeoutMS: 10_000,
  reporters: sampled ? ['progress', 'json'] : ['clear-text', 'progress', 'json', 'html'],
  jsonReporter: { fileName: `reports/mutation/${name}.json` },
  htmlReporter: { fileName: `reports/mutation/${name}.html` },
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
})

if (maxMinutes > 0) {
  // A bounded run for a quick look: Stryker has no limit of its own, so the process ends itself.
  setTimeout(() => {
    console.error(`mutate: stopped after ${maxMinutes} minutes (--max-minutes); no score.`)
    process.exit(2)
  }, maxMinutes * 60_000).unref()
}

const all = await stryker.runMutationTest()
const results = all.filter((r) => inSample(r.id, basisPoints, seed))
if (sampled) markOutsideSampleIgnored(`reports/mutation/${name}.json`)
const count = (statuses) => results.filter((r) => statuses.includes(r.status)).length
const detected = count(['Killed', 'Timeout'])
const survived = count(['Survived'])
const uncovered = count(['NoCoverage'])
const valid = detected + survived + uncovered
const score = valid === 0 ? null : Math.round((1000 * detected) / valid) / 10
const summary = {
  folder,
  files,
  date: new Date().toISOString().slice(0, 10),
  tests,
  sample: sampled ? { percent: sample, seed, of: all.length, margin95: sampleMargin(score, valid, all.length) } : null,
  mutants: results.length,
  killed: count(['Killed']),
  timedOut: count(['Timeout']),
  survived,
  noCoverage: uncovered,
  errors: count(['CompileError', 'RuntimeError']),
  score,
  scoreCovered: detected + survived === 0 ? null : Math.round((1000 * detected) / (detected + survived)) / 10,
  survivors: results
    .filter((r) => r.status === 'Survived')
    .map(
      (r) =>
        `${r.fileName.replace(/^.*?(?=(engine|gateway|shared|client|cli)\/)/, '')}:${r.location.start.line}:${r.location.start.column} ${r.mutatorName} → ${oneLine(r.replacement)}`,
    ),
}
writeFileSync(`reports/mutation/${name}.summary.json`, JSON.stringify(summary, null, 2) + '\n')
const margin = summary.sample ? ` ±${summary.sample.margin95} (a ${sample} % sample of ${all.length}, seed ${seed})` : ''
console.log(
  `mutate ${folder}: ${summary.mutants} mutants, ${detected} detected (${summary.killed} killed, ${summary.timedOut} timed out), ` +
    `${survived} survived, ${uncovered} not covered; score ${summary.score}%${margin} (${summary.scoreCovered}% of covered)`,
)

function oneLine(text) {
  const flat = String(text ?? '').replace(/\s+/g, ' ')
  return flat.length > 100 ? `${flat.slice(0, 100)}…` : flat
}

/** Mutants outside the sample were never tested: the report says so instead of "survived". */
function markOutsideSampleIgnored(path) {
  const report = JSON.parse(readFileSync(path, 'utf8'))
  for (const file of Object.values(report.files)) {
    for (const mutant of file.mutants) {
      if (!inSample(mutant.id, basisPoints, seed)) {
        mutant.status = 'Ignored'
        mutant.statusReason = `outside the ${sample} % sample (seed ${seed})`
      }
    }
  }
  writeFileSync(path, JSON.stringify(report))
}
