import { expect } from 'chai'
import { EventEmitter } from 'node:events'
import type { Context } from 'koa'
import { AppError } from '../../shared/errors.js'
import { createMemoryStore, type Store } from '../../shared/store/index.js'
import type { Deps } from '../../gateway/deps.js'
import { holdReadSlot } from '../../gateway/routes/read-slot.js'

/** A request of ann's session whose response can be closed by the test. */
const fakeCtx = (sid = 's1'): Context & { res: EventEmitter } =>
  ({ res: new EventEmitter(), state: { auth: { session: { uid: 'ann', sid } } } }) as unknown as Context & { res: EventEmitter }

const code = (p: Promise<unknown>): Promise<string | null> =>
  p.then(
    () => null,
    (e: unknown) => (e instanceof AppError ? e.code : String(e)),
  )

describe('gateway/routes/read-slot.ts: holdReadSlot()', () => {
  let store: Store
  let deps: Pick<Deps, 'store' | 'config'>
  beforeEach(async () => {
    store = createMemoryStore()
    await store.connect()
    deps = { store, config: { maxQueriesPerSession: 1, maxQueriesPerUser: 2 } } as unknown as Pick<Deps, 'store' | 'config'>
  })
  afterEach(() => store.close())

  it('holds a slot of the session from a row read until the response closes', async () => {
    const reading = fakeCtx()
    await holdReadSlot(reading, deps, 'data')
    expect(await code(holdReadSlot(fakeCtx(), deps, 'head')), 'the session is at its limit').to.equal('TOO_MANY_REQUESTS')
    reading.res.emit('close')
    await new Promise((r) => setTimeout(r, 20))
    expect(await code(holdReadSlot(fakeCtx(), deps, undefined)), "a table's bare URL reads rows too").to.equal(null)
  })

  it('counts against the user across sessions', async () => {
    await holdReadSlot(fakeCtx('s1'), deps, 'data')
    await holdReadSlot(fakeCtx('s2'), deps, 'data')
    expect(await code(holdReadSlot(fakeCtx('s3'), deps, 'data'))).to.equal('TOO_MANY_REQUESTS')
  })

  it('takes no slot for the metadata methods !cols and !rows', async () => {
    await holdReadSlot(fakeCtx(), deps, 'data')
    expect(await code(holdReadSlot(fakeCtx(), deps, 'cols'))).to.equal(null)
    expect(await code(holdReadSlot(fakeCtx(), deps, 'rows'))).to.equal(null)
  })
})
