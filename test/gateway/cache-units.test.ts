import { expect } from 'chai'
import { compiledEntryBytes, CompiledQueries } from '../../gateway/cache/compiled-queries.js'
import { closeCompiler } from '../../gateway/cache/compile-thread.js'
import { parseRecordOnce } from '../../gateway/cache/parsed-records.js'
import { RecentStoreCopies } from '../../gateway/query/results/recent-store-copies.js'
import { createHash } from 'node:crypto'
import { Results } from '../../gateway/query/results/results.js'
import { createMemoryStore } from '../../shared/store/index.js'
import type { ColumnSpec } from '../../shared/table.js'

const intCol = (name: string): ColumnSpec => ({ name, type: 'int' })

describe('CompiledQueries', () => {
  const xml = '<base table="t.x"/><sel value="a=1"/>'

  after(() => closeCompiler())

  it('parses a query text once (on a compiler thread) and names its tables', async () => {
    const c = new CompiledQueries()
    const first = await c.parseRun(xml, {})
    expect(first.tables).to.deep.equal(['t.x'])
    expect(await c.parseRun(xml, {})).to.equal(first)
    expect(c.sizes.parsed).to.equal(1)
  })

  it('keeps texts with different variables apart', async () => {
    const c = new CompiledQueries()
    const q = '<base table="t.x"/><sel value="a={@n}"/>'
    const one = await c.parseRun(q, { n: '1' })
    const two = await c.parseRun(q, { n: '2' })
    expect(two).not.to.equal(one)
    expect(JSON.stringify(two.ops)).to.contain('2').and.not.equal(JSON.stringify(one.ops))
  })

  it('reuses a check only for the same table versions: a new version with another schema is checked again', async () => {
    const c = new CompiledQueries()
    const v1 = [{ path: 't.x', version: 'v1', columns: [intCol('a')] }]
    const v2 = [{ path: 't.x', version: 'v2', columns: [intCol('b')] }]
    expect(await c.checkRun(xml, {}, v1)).to.equal(await c.checkRun(xml, {}, v1))
    const refused = await c.checkRun(xml, {}, v2).then(
      () => null,
      (e: unknown) => e,
    )
    expect(String(refused)).to.match(/\ba\b/)
    expect(await c.checkRun(xml, {}, v1)).to.be.an('array')
  })

  it('does not cache failures: a bad SQL text fails every time', async () => {
    const c = new CompiledQueries()
    for (let i = 0; i < 3; i++) {
      const refused = await c.sqlTableNames('delete from t.x').then(
        () => null,
        (e: unknown) => e,
      )
      expect(refused).to.be.an('error')
    }
    expect(c.sizes.sql).to.equal(0)
    expect(await c.sqlTableNames('select * from a.b.c join a.b.d using (k)')).to.have.members(['a.b.c', 'a.b.d'])
    expect(c.sizes.sql).to.equal(1)
  })

  it('holds each kind within its byte budget, charged by key length, dropping the least recently used', async () => {
    const texts = [1, 2, 3, 4, 5].map((n) => `select ${n} from a.b.t${n}`)
    const c = new CompiledQueries(3 * compiledEntryBytes(texts[0]))
    for (const t of texts.slice(0, 3)) await c.sqlTableNames(t)
    await c.sqlTableNames(texts[0])
    for (const t of texts.slice(3)) await c.sqlTableNames(t)
    expect(c.sizes.sql).to.equal(3)
  })

  it('keeps far fewer long queries than short ones in the same budget', async () => {
    const budget = 256 * 1024
    const c = new CompiledQueries(budget)
    const long = (n: number) => `<base table="a.b.t"/>${Array.from({ length: 150 }, (_, i) => `<willbe name="x${i}" value="${i}+${n}"/>`).join('')}`
    for (let n = 0; n < 20; n++) await c.parseRun(long(n), {})
    expect(c.sizes.parsed).to.be.at.most(Math.floor(budget / compiledEntryBytes(long(0))))
    expect(c.sizes.parsed).to.be.at.least(1)
    for (let n = 0; n < 20; n++) await c.parseRun(`<base table="a.b.t${n}"/>`, {})
    expect(c.sizes.parsed).to.be.above(10)
  })
})

describe('RecentStoreCopies', () => {
  it('claims a key once per half TTL, and again after a failed write is forgotten', () => {
    let now = 1_000_000
    const k = new RecentStoreCopies(60, 100, () => now)
    expect(k.claim('a')).to.equal(true)
    expect(k.claim('a')).to.equal(false)
    expect(k.claim('b')).to.equal(true)
    now += 29_999
    expect(k.claim('a')).to.equal(false)
    now += 1
    expect(k.claim('a')).to.equal(true)
    k.forget('b')
    expect(k.claim('b')).to.equal(true)
  })

  it('remembers at most maxKeys keys, forgetting the oldest first', () => {
    const k = new RecentStoreCopies(60, 2)
    k.claim('a')
    k.claim('b')
    k.claim('c')
    expect(k.size).to.equal(2)
    expect(k.claim('a')).to.equal(true)
    expect(k.claim('c')).to.equal(false)
  })
})

describe('parseRecordOnce', () => {
  it('parses each stored text once, shares the frozen record, and parses a changed text afresh', () => {
    const raw = JSON.stringify({ path: 'a.b', version: 'v1', columns: [{ name: 'x', type: 'int' }] })
    const a = parseRecordOnce<{ version: string; columns: { name: string }[] }>(raw)!
    expect(parseRecordOnce(raw)).to.equal(a)
    expect(Object.isFrozen(a) && Object.isFrozen(a.columns) && Object.isFrozen(a.columns[0])).to.equal(true)
    const changed = parseRecordOnce<{ version: string }>(raw.replace('v1', 'v2'))!
    expect(changed.version).to.equal('v2')
    expect(parseRecordOnce(null)).to.equal(null)
  })
})

describe('Results.key', () => {
  const results = () => new Results(createMemoryStore(), () => undefined, { memoBytes: 1 << 20, ttlSeconds: 60, storeBytes: 1 << 20 })

  it('is the SHA-256 of the recipe JSON, as every gateway before it computed it, for equal recipes alike and for different ones apart', () => {
    const a = { kind: 'sql', sql: 'select 1', tables: [] }
    const keys = results()
    // Results kept in the Store by older gateways are found by this exact key.
    expect(keys.key(a)).to.equal(createHash('sha256').update(JSON.stringify(a)).digest('hex'))
    expect(keys.key(a)).to.equal('7f02773f89a777f6f73d78094634d7353ab74565dd49997a99907e93ff2ff23d')
    expect(keys.key(a)).to.equal(keys.key({ ...a }))
    expect(keys.key({ ...a, sql: 'select 2' })).not.to.equal(keys.key(a))
    expect(results().key({ ...a }), 'another gateway').to.equal(keys.key(a))
  })
})
