import { expect } from 'chai'
import { parseSessionCookie, sessionCookieValues } from '../../gateway/auth/cookie.js'

describe('sessionCookieValues()', () => {
  it('finds the session cookie among others', () => {
    expect(sessionCookieValues('siduids=1|a; session=a|1|_x; theme=dark')).to.deep.equal(['a|1|_x'])
  })
  it('accepts percent-encoded bars and quoted values', () => {
    expect(sessionCookieValues('session=a%7C1%7C_x')).to.deep.equal(['a|1|_x'])
    expect(sessionCookieValues('session="a|1|_x"')).to.deep.equal(['a|1|_x'])
  })
  it('returns every session cookie when there are several', () => {
    expect(sessionCookieValues('session=a|1|x; session=b|2|y')).to.deep.equal(['a|1|x', 'b|2|y'])
  })
  it('ignores missing, empty, oversized and badly encoded headers', () => {
    expect(sessionCookieValues(undefined)).to.deep.equal([])
    expect(sessionCookieValues('')).to.deep.equal([])
    expect(sessionCookieValues('x'.repeat(20000))).to.deep.equal([])
    expect(sessionCookieValues('session=%E0%A4%A')).to.deep.equal([])
  })
})

describe('parseSessionCookie()', () => {
  it('splits uid, sid and epw', () => {
    expect(parseSessionCookie('admin|123|_abc')).to.deep.equal({ uid: 'admin', sid: '123', epw: '_abc' })
  })
  it('refuses anything but three non-empty parts', () => {
    for (const v of ['', 'a|1', 'a|1|x|y', 'a||x', '|1|x']) expect(parseSessionCookie(v), v).to.equal(null)
  })
})
