import { expect } from 'chai'
import { FairLruCache } from '../../gateway/tables/fair-lru.js'

describe('FairLruCache used by one user: a plain least-recently-used cache (the result memo)', () => {
  it('evicts the least recently used entries beyond the budget', () => {
    const c = new FairLruCache<string>(10, (v) => v.length)
    c.set('a', 'xxxx')
    c.set('b', 'xxxx')
    c.get('a')
    c.set('c', 'xxxx')
    expect(c.get('b')).to.equal(undefined)
    expect(c.get('a')).to.equal('xxxx')
    expect(c.size).to.equal(8)
  })
  it('does not keep a value larger than the whole budget', () => {
    const c = new FairLruCache<string>(3, (v) => v.length)
    c.set('a', 'xxxx')
    expect(c.get('a')).to.equal(undefined)
    expect(c.size).to.equal(0)
  })
  it('shares one load between concurrent callers and counts hits', async () => {
    const c = new FairLruCache<number>(100, () => 1)
    let loads = 0
    const load = async () => {
      loads++
      await new Promise((r) => setTimeout(r, 5))
      return 42
    }
    expect(await Promise.all([c.getOrLoad('k', load), c.getOrLoad('k', load)])).to.deep.equal([42, 42])
    expect(await c.getOrLoad('k', load)).to.equal(42)
    expect(loads).to.equal(1)
    expect(c.hits).to.equal(1)
  })
  it('does not cache a failed load', async () => {
    const c = new FairLruCache<number>(100, () => 1)
    await c.getOrLoad('k', () => Promise.reject(new Error('x'))).catch(() => undefined)
    expect(await c.getOrLoad('k', async () => 7)).to.equal(7)
  })
})
