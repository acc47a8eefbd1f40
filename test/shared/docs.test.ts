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
import { STATUS, wireCode } from '../../gateway/errors.js'

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
