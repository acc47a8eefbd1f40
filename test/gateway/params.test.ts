import { expect } from 'chai'
import type { Context } from 'koa'
import { AppError } from '../../shared/errors.js'
import { checkQuerySize, flagParam, requestParams, rowParam, stringParam, timeoutParam } from '../../gateway/http/params.js'

/** The parts of a Koa context requestParams reads. */
function fakeCtx(query: Record<string, unknown>, body?: unknown, contentType?: string): Context {
  const headers = contentType === undefined ? {} : { 'content-type': contentType }
  return { query, request: { body }, req: { headers }, is: () => false } as unknown as Context
}

const codeOf = (f: () => unknown): string | undefined => {
  try {
    f()
  } catch (e) {
    return e instanceof AppError ? e.code : `not an AppError: ${String(e)}`
  }
  return undefined
}

describe('gateway/http/params.ts', () => {
  describe('requestParams()', () => {
    it('merges query string and body, the body winning, and drops fmt_ and method_', () => {
      const params = requestParams(fakeCtx({ a: '1', b: '2', fmt_: 'json' }, { b: '3', method_: 'x' }, 'application/json'))
      expect({ ...params }).to.deep.equal({ a: '1', b: '3' })
    })

    it('takes the last of a repeated query-string value or form field, but keeps a JSON array whole', () => {
      expect(requestParams(fakeCtx({ a: ['1', '2'] })).a).to.equal('2')
      expect(requestParams(fakeCtx({}, { cmd: ['x', 'y'] }, 'application/x-www-form-urlencoded')).cmd).to.equal('y')
      expect(requestParams(fakeCtx({}, { cmd: ['x', 'y'] }, 'application/json; charset=utf-8')).cmd).to.deep.equal(['x', 'y'])
    })

    it('refuses a JSON array or scalar body, and an upload body outside dbm uploads', () => {
      expect(codeOf(() => requestParams(fakeCtx({}, [1, 2], 'application/json')))).to.equal('INVALID_PARAMETER')
      expect(codeOf(() => requestParams(fakeCtx({}, 7, 'application/json')))).to.equal('INVALID_PARAMETER')
      const upload = { uploadBytes: Buffer.from('a,b\n'), uploadFormat: 'csv' }
      expect(codeOf(() => requestParams(fakeCtx({}, upload, 'text/csv')))).to.equal('UNSUPPORTED_MEDIA_TYPE')
    })

    it('takes an empty body as no body', () => {
      expect({ ...requestParams(fakeCtx({ a: '1' }, '')) }).to.deep.equal({ a: '1' })
    })
  })

  describe('stringParam()', () => {
    it('gives strings, numbers and booleans as text, undefined when absent', () => {
      expect(stringParam({ s: 'x', n: 5, b: true }, 's')).to.equal('x')
      expect(stringParam({ n: 5 }, 'n')).to.equal('5')
      expect(stringParam({ b: true }, 'b')).to.equal('true')
      expect(stringParam({}, 'x')).to.equal(undefined)
    })

    it('refuses a missing required parameter (400) and an object', () => {
      expect(codeOf(() => stringParam({}, 'x', { required: true }))).to.equal('MISSING_PARAMETER')
      expect(codeOf(() => stringParam({ x: { y: 1 } }, 'x'))).to.equal('INVALID_PARAMETER')
    })
  })

  describe('rowParam()', () => {
    it('reads whole numbers of 0 or more, empty as absent', () => {
      expect(rowParam({ r: ' 12 ' }, 'r')).to.equal(12)
      expect(rowParam({ r: 0 }, 'r')).to.equal(0)
      expect(rowParam({ r: '' }, 'r')).to.equal(undefined)
      expect(rowParam({}, 'r')).to.equal(undefined)
    })

    it('refuses negatives, fractions and words', () => {
      for (const r of ['-1', '1.5', 'ten'])
        expect(
          codeOf(() => rowParam({ r }, 'r')),
          r,
        ).to.equal('INVALID_PARAMETER')
    })
  })

  describe('flagParam()', () => {
    it('reads 1/true/yes as on and 0/false/no/absent as off, anything else refused', () => {
      for (const v of ['1', 'TRUE', ' yes ']) expect(flagParam({ f: v }, 'f'), v).to.equal(true)
      for (const v of ['0', 'false', 'No', '']) expect(flagParam({ f: v }, 'f'), v).to.equal(false)
      expect(flagParam({}, 'f')).to.equal(false)
      expect(codeOf(() => flagParam({ f: '2' }, 'f'))).to.equal('INVALID_PARAMETER')
    })
  })

  describe('checkQuerySize()', () => {
    it('counts UTF-8 bytes, not characters', () => {
      expect(() => checkQuerySize('sql', 'a'.repeat(10), 10)).not.to.throw()
      expect(codeOf(() => checkQuerySize('sql', 'a'.repeat(11), 10))).to.equal('QUERY_TOO_LARGE')
      // Five characters, ten bytes.
      expect(() => checkQuerySize('sql', 'üüüüü', 10)).not.to.throw()
      expect(codeOf(() => checkQuerySize('sql', 'üüüüüü', 10))).to.equal('QUERY_TOO_LARGE')
    })
  })

  describe('timeoutParam()', () => {
    it('takes the service limit when timeout_ is absent or larger, and timeout_ when smaller', () => {
      expect(timeoutParam({}, 1000)).to.deep.equal({ timeoutMs: 1000, timeoutLimit: 'QUERY_TIMEOUT_MS' })
      expect(timeoutParam({ timeout_: '' }, 1000)).to.deep.equal({ timeoutMs: 1000, timeoutLimit: 'QUERY_TIMEOUT_MS' })
      expect(timeoutParam({ timeout_: '5000' }, 1000)).to.deep.equal({ timeoutMs: 1000, timeoutLimit: 'QUERY_TIMEOUT_MS' })
      expect(timeoutParam({ timeout_: ' 250 ' }, 1000)).to.deep.equal({ timeoutMs: 250, timeoutLimit: 'timeout_' })
      expect(timeoutParam({ timeout_: 250 }, 1000)).to.deep.equal({ timeoutMs: 250, timeoutLimit: 'timeout_' })
    })

    it('refuses 0, negatives, fractions and non-numbers', () => {
      for (const t of ['0', '-5', '1.5', 'soon', true])
        expect(
          codeOf(() => timeoutParam({ timeout_: t }, 1000)),
          String(t),
        ).to.equal('INVALID_PARAMETER')
    })
  })
})
