/**
 * shared/api-answers.d.ts is a declaration file, and both builds skip checking those
 * (`skipLibCheck`): a misspelt type there would silently become `any` for the gateway, client/
 * and the workbench alike. This checks it on its own, strictly, with the compiler's API.
 */
import { expect } from 'chai'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'

const FILE = fileURLToPath(new URL('../../../shared/api-answers.d.ts', import.meta.url))

describe('shared/api-answers.d.ts', () => {
  it('type-checks on its own, with nothing skipped', () => {
    const program = ts.createProgram([FILE], { strict: true, noEmit: true, skipLibCheck: false, types: [], lib: ['lib.es2022.d.ts'] })
    const problems = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))
    expect(problems).to.deep.equal([])
  })
})
