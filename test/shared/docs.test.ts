/** The README is part of the contract: every error code and configuration variable is in it. */
import { expect } from 'chai'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { ERROR_CODES, type ErrorCode } from '../../shared/errors.js'
import { CONFIG_VARIABLES } from '../../shared/config.js'
import { STATUS, wireCode } from '../../gateway/errors.js'

const README = readFileSync(fileURLToPath(new URL('../../../README.md', import.meta.url)), 'utf8')

describe('README', () => {
  for (const code of Object.keys(ERROR_CODES) as ErrorCode[]) {
    it(`documents the error code ${wireCode(code)} with its HTTP status ${STATUS[code]}`, () => {
      const row = README.split('\n').find((l) => l.startsWith(`| \`${wireCode(code)}\` |`))
      expect(row, `README row for ${wireCode(code)}`).to.be.a('string')
      expect(row).to.contain(`| ${STATUS[code]} |`)
    })
  }
  for (const name of CONFIG_VARIABLES) {
    it(`documents the configuration variable ${name}`, () => {
      expect(README).to.match(new RegExp('\\| `' + name + '`'))
    })
  }
})
