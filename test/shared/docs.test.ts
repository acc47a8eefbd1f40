/**
 * The documentation is part of the contract: every configuration variable is in the README's table,
 * every error code in docs/errors.md, and every link between the README and docs/ leads somewhere.
 */
import { expect } from 'chai'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, normalize } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ERROR_CODES, type ErrorCode } from '../../shared/errors.js'
import { CONFIG_VARIABLES } from '../../shared/config.js'
import { STATUS, wireCode } from '../../gateway/http/errors.js'

const ROOT = fileURLToPath(new URL('../../../', import.meta.url))
const read = (file: string): string => readFileSync(join(ROOT, file), 'utf8')
const README = read('README.md')
const ERRORS = read('docs/errors.md')
const PAGES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
]

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as hyphens. */
const slug = (heading: string): string =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_\- ]/gu, '')
    .replace(/ /g, '-')

/** The anchors of a Markdown page's headings (not counting lines inside fenced code). */
function anchors(text: string): Set<string> {
  const found = new Set<string>()
  let code = false
  for (const line of text.split('\n')) {
    if (line.startsWith('```')) code = !code
    const m = code ? null : /^#{1,6} (.*)$/.exec(line)
    if (m) found.add(slug(m[1]))
  }
  return found
}

describe('README', () => {
  for (const name of CONFIG_VARIABLES) {
    it(`documents the configuration variable ${name}`, () => {
      expect(README).to.match(new RegExp('\\| `' + name + '`'))
    })
  }
})

describe('docs/errors.md', () => {
  for (const code of Object.keys(ERROR_CODES) as ErrorCode[]) {
    it(`documents the error code ${wireCode(code)} with its HTTP status ${STATUS[code]}`, () => {
      const row = ERRORS.split('\n').find((l) => l.startsWith(`| \`${wireCode(code)}\` |`))
      expect(row, `docs/errors.md row for ${wireCode(code)}`).to.be.a('string')
      expect(row).to.contain(`| ${STATUS[code]} |`)
    })
  }
})

describe('links between the README and docs/', () => {
  for (const page of PAGES) {
    it(`every local link of ${page} leads to an existing file and heading`, () => {
      const broken: string[] = []
      for (const [, url] of read(page).matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(url)) continue
        const [path, fragment] = url.split('#')
        const target = path ? normalize(join(dirname(page), path)) : page
        if (!existsSync(join(ROOT, target))) broken.push(`${url} (no file ${target})`)
        else if (fragment && target.endsWith('.md') && !anchors(read(target)).has(fragment)) {
          broken.push(`${url} (no heading #${fragment} in ${target})`)
        }
      }
      expect(broken, `broken links in ${page}`).to.deep.equal([])
    })
  }
})

/**
 * Paths written in prose: README.md, docs/ and the product's comments name repository files as
 * `gateway/pool/runner.ts` or (in a file of gateway/ui) `client/query-page.ts`. A path resolves from the
 * repository root or from the naming file's folder; `.js` may stand for its `.ts` source. What is
 * not a repository path is listed here with its reason.
 */
const NOT_REPOSITORY_PATHS: Readonly<Record<string, string>> = {
  'shared/reference/macro-language.md': 'the team folder beside the repository, not its shared/',
  'shared/reference/dynamic-api.md': 'the team folder beside the repository, not its shared/',
  'bench/results': 'made by the benchmarks when they run',
  'test/security/principals-': 'a prefix of several test files',
  'gateway/login-throttle': "a filter of the test runner's paths",
}
const PATH_IN_PROSE = /(?<![\w./-])((?:gateway|engine|shared|client|cli|test|bench|scripts|docs|deploy)\/[\w./-]*[\w-])/g
const PRODUCT_FOLDERS = ['gateway', 'engine', 'shared', 'client', 'cli', 'scripts', 'bench']

function productSources(): string[] {
  const files: string[] = []
  for (const folder of PRODUCT_FOLDERS)
    for (const entry of readdirSync(join(ROOT, folder), { recursive: true, withFileTypes: true }))
      if (entry.isFile() && /\.(c?ts|mjs)$/.test(entry.name)) files.push(normalize(join(entry.parentPath, entry.name)).slice(ROOT.length))
  return files
}

function missingPaths(file: string): string[] {
  const missing = new Set<string>()
  for (const [, path] of read(file).matchAll(PATH_IN_PROSE)) {
    if (/[*{<]/.test(path) || path.startsWith('test/artifacts') || path in NOT_REPOSITORY_PATHS) continue
    const forms = [path, path.replace(/\.js$/, '.ts'), path.replace(/\.cjs$/, '.cts')]
    const found = forms.some((p) => existsSync(join(ROOT, p)) || existsSync(join(ROOT, dirname(file), p)))
    if (!found) missing.add(path)
  }
  return [...missing]
}

describe('repository paths named in the README, docs/ and product comments (issue 37)', () => {
  for (const page of PAGES)
    it(`every path ${page} names exists`, () => {
      expect(missingPaths(page)).to.deep.equal([])
    })
  it('every path a product source names in its comments exists', () => {
    const broken = productSources().flatMap((f) => missingPaths(f).map((p) => `${f}: ${p}`))
    expect(broken).to.deep.equal([])
  })
})

describe('the README configuration table (issue 37)', () => {
  it('names only variables the code reads (shared/config.ts)', () => {
    const known = new Set<string>(CONFIG_VARIABLES)
    const documented = [...README.matchAll(/^\| `([A-Z][A-Z0-9_]+)` \|/gm)].map((m) => m[1])
    expect(documented.length, 'rows found in the table').to.be.greaterThan(20)
    expect(documented.filter((name) => !known.has(name))).to.deep.equal([])
  })
})
