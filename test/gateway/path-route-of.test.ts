/**
 * The parsed API path kept on a request (gateway/http/path.ts): handlers read it through
 * routeOf, which refuses to go on without it rather than answering from an undefined route;
 * middleware that runs for every request reads it through parsedRouteOf.
 */
import { expect } from 'chai'
import type { Context } from 'koa'
import { AppError } from '../../shared/errors.js'
import { parseApiPath, parsedRouteOf, routeOf } from '../../gateway/http/path.js'

const contextWith = (route: unknown): Context => ({ path: '/v1/api/run', state: route === undefined ? {} : { route } }) as unknown as Context

describe('the parsed API path of a request', () => {
  it('is read back as the parser gave it', () => {
    const route = parseApiPath('/v1/api/run:json', ['v1'])
    expect(route).to.not.equal(null)
    expect(routeOf(contextWith(route))).to.equal(route)
    expect(parsedRouteOf(contextWith(route))).to.equal(route)
  })

  it('is undefined for middleware before the parser, and an internal error for a handler', () => {
    expect(parsedRouteOf(contextWith(undefined))).to.equal(undefined)
    expect(() => routeOf(contextWith(undefined)))
      .to.throw(AppError)
      .with.property('code', 'INTERNAL')
  })
})
