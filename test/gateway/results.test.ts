/**
 * The result cache (gateway/query/results/store/) against the memory store and, when TEST_REDIS_URL is set,
 * Redis: round trips, ranges, what is fetched, expiry, replacement, drop, the size guard, and
 * readers racing writers.
 */
import { expect } from 'chai'
import { randomUUID } from 'node:crypto'
import { ResultStore } from '../../gateway/query/results/store/chunked.js'
import { columnMeta, NA_INT } from '../../shared/table.js'
import type { ResultSet } from '../../shared/protocol.js'
import { createMemoryStore, createRedisStore } from '../../shared/store/index.js'
import type { Store } from '../../shared/store/index.js'
import { redisAvailable } from '../helpers/service.js'
import { dataOf } from '../helpers/columns.js'
import { sliceColumn } from '../../shared/result-text.js'

const TEXT_VALUES = ['', 'alpha', 'ünïcödé', '日本語', '👍🏽', '\ud800lone', 'nul\u0000', 'line\nbreak', '"q"\\', '\u2028']
const FLOAT_EDGES = [NaN, -0, Infinity, -Infinity, Number.MIN_VALUE, 1e308]

/**
 * A deterministic result of `rows` rows: an int column with NA_INT, a date column, a float
 * column with NaN and -0 among other edge values, and a text column with '' and awkward strings.
 * `seed` makes results of the same size differ.
 */
function makeResult(rows: number, seed = 0): ResultSet {
  const ints = new Int32Array(rows)
  const dates = new Int32Array(rows)
  const floats = new Float64Array(rows)
  const texts: string[] = []
  for (let i = 0; i < rows; i++) {
    ints[i] = i % 11 === 0 ? NA_INT : (i * 7919 + seed) | 0
    dates[i] = 20240101 + ((i + seed) % 28)
    floats[i] = i % 13 === 0 ? FLOAT_EDGES[(i / 13) % FLOAT_EDGES.length] : i / 7 + seed
    texts.push(`${TEXT_VALUES[(i + seed) % TEXT_VALUES.length]}${i % 3 === 0 ? '' : i}`)
  }
  return {
    cols: [
      columnMeta({ name: 'n', type: 'int' }),
      columnMeta({ name: 'day', type: 'date' }),
      columnMeta({ name: 'x', type: 'float', label: 'X value' }),
      columnMeta({ name: 's', type: 'text' }),
    ],
    columns: [
      { kind: 'int', data: ints },
      { kind: 'int', data: dates },
      { kind: 'float', data: floats },
      { kind: 'text', data: texts },
    ],
    rowCount: rows,
  }
}

/** Rows [from, to) of a result, the way readRange should answer them. */
function slice(result: ResultSet, from: number, to: number): ResultSet {
  return {
    cols: result.cols,
    columns: result.columns.map((c) => sliceColumn(c, from, to)),
    rowCount: Math.max(0, to - from),
  }
}

/** Compares two results exactly: numbers by their bytes (NaN payloads, -0), text by value. */
function expectSameResult(actual: ResultSet | null, expected: ResultSet): void {
  expect(actual, 'a result').to.not.equal(null)
  expect(actual!.rowCount).to.equal(expected.rowCount)
  expect(actual!.cols).to.deep.equal(expected.cols)
  expect(actual!.columns.map((c) => c.kind)).to.deep.equal(expected.columns.map((c) => c.kind))
  actual!.columns.forEach((column, i) => {
    const want = expected.columns[i]
    const got = dataOf(column)
    expect(got.length, `column ${i} length`).to.equal(expected.rowCount)
    if (Array.isArray(got)) return expect(got, `column ${i}`).to.deep.equal(dataOf(want))
    const bytes = (a: Int32Array | Float64Array): Buffer => Buffer.from(a.buffer, a.byteOffset, a.byteLength)
    expect(bytes(got as Int32Array | Float64Array).equals(bytes(dataOf(want) as Int32Array | Float64Array)), `column ${i} bytes`).to.equal(true)
  })
}

/** Whether two results hold the same rows (for the races, where either of two answers is right). */
function sameResult(actual: ResultSet, expected: ResultSet): boolean {
  try {
    expectSameResult(actual, expected)
    return true
  } catch {
    return false
  }
}

/** A store that counts the keys read through it, for "only the needed chunks are fetched". */
function countingStore(inner: Store): { store: Store; reads: { calls: string[]; keys: number } } {
  const reads = { calls: [] as string[], keys: 0 }
  const keyReaders: Record<string, (args: unknown[]) => number> = {
    get: () => 1,
    mget: (args) => (args[0] as string[]).length,
    hget: () => 1,
    hgetall: () => 1,
    smembers: () => 1,
    watch: (args) => (args[0] as string[]).length,
    keys: () => Infinity,
  }
  const store = new Proxy(inner, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown
      if (typeof prop !== 'string' || typeof value !== 'function') return value
      return (...args: unknown[]) => {
        const count = keyReaders[prop]
        if (count) {
          reads.calls.push(prop)
          reads.keys += count(args)
        }
        return (value as (...a: unknown[]) => unknown).apply(target, args)
      }
    },
  })
  return { store, reads }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/** The result cache's keys in the store (every key this suite writes starts with "res:"). */
const cacheKeys = (store: Store): Promise<string[]> => store.keys('res:')

for (const kind of ['memory', 'redis'] as const) {
  describe(`result cache (${kind} store)`, function () {
    let store: Store
    let keyPrefix = ''

    before(async function () {
      // redisAvailable() throws under CI=true without Redis: a hook failure, so the run fails.
      if (kind === 'redis' && !redisAvailable()) {
        console.log('    (Redis not installed: skipping the Redis run of this suite)')
        return this.skip()
      }
      keyPrefix = `test:results:${randomUUID()}:`
      store = kind === 'redis' ? createRedisStore(process.env.TEST_REDIS_URL!, { keyPrefix }) : createMemoryStore()
      await store.connect()
    })

    afterEach(async () => {
      if (!store) return
      const keys = await store.keys('')
      for (let i = 0; i < keys.length; i += 500) await store.del(...keys.slice(i, i + 500))
    })

    after(async () => store?.close())

    describe('round trips', () => {
      it('keeps every column kind exactly, N/A and edge values included, across many chunks', async () => {
        const cache = new ResultStore(store, { ttl: 60, chunkRows: 7 })
        const result = makeResult(200)
        expect(await cache.save('rt', result)).to.equal('saved')
        expectSameResult(await cache.readRange('rt', 0, 200), result)
      })

      it('reports the columns and size without reading rows', async () => {
        const cache = new ResultStore(store, { ttl: 60, chunkRows: 64 })
        const result = makeResult(1000)
        await cache.save('m', result)
        const meta = await cache.meta('m')
        expect(meta).to.include({ rowCount: 1000, chunkRows: 64, chunks: 16 })
        expect(meta!.cols).to.deep.equal(result.cols)
        expect(meta!.kinds).to.deep.equal(['int', 'int', 'float', 'text'])
        const stored = await cacheKeys(store)
        const values = await store.mget(stored.filter((k) => !k.endsWith(':meta')))
        expect(meta!.bytes).to.equal(values.reduce((sum, v) => sum + Buffer.byteLength(v!), 0))
      })

      it('keeps an empty result and one without columns', async () => {
        const cache = new ResultStore(store, { ttl: 60, chunkRows: 4 })
        const empty = makeResult(0)
        expect(await cache.save('empty', empty)).to.equal('saved')
        expect(await cache.meta('empty')).to.include({ rowCount: 0, chunks: 0 })
        expectSameResult(await cache.readRange('empty', 0, 10), empty)

        const noColumns: ResultSet = { cols: [], columns: [], rowCount: 10 }
        expect(await cache.save('nocols', noColumns)).to.equal('saved')
        expect(await cache.readRange('nocols', 2, 9)).to.deep.equal({ cols: [], columns: [], rowCount: 7 })
      })

      it('answers null for a result that was never kept', async () => {
        const cache = new ResultStore(store, { ttl: 60 })
        expect(await cache.meta('nothing')).to.equal(null)
        expect(await cache.readRange('nothing', 0, 10)).to.equal(null)
        expect(await cache.touch('nothing')).to.equal(false)
        expect(await cache.drop('nothing')).to.equal(false)
      })

      it('keeps results under different keys apart, including keys that contain colons', async () => {
        const cache = new ResultStore(store, { ttl: 60, chunkRows: 8 })
        const a = makeResult(30, 1)
        const b = makeResult(50, 2)
        await cache.save('inst:7', a)
        await cache.save('inst:7:x=1', b)
        expectSameResult(await cache.readRange('inst:7', 0, Infinity), a)
        expectSameResult(await cache.readRange('inst:7:x=1', 0, Infinity), b)
        await cache.drop('inst:7')
        expectSameResult(await cache.readRange('inst:7:x=1', 0, Infinity), b)
      })
    })

    describe('ranges', () => {
      const ROWS = 1000
      const CHUNK = 64
      const result = makeResult(ROWS)
      let cache: ResultStore
      beforeEach(async () => {
        cache = new ResultStore(store, { ttl: 60, chunkRows: CHUNK })
        await cache.save('r', result)
      })

      const cases: [string, number, number, number, number][] = [
        // title, from, to, and the rows expected: [expectFrom, expectTo)
        ['inside one chunk', 70, 100, 70, 100],
        ['exactly one chunk', 64, 128, 64, 128],
        ['across one chunk boundary', 100, 200, 100, 200],
        ['across several chunks', 5, 700, 5, 700],
        ['a single row', 127, 128, 127, 128],
        ['the first rows', 0, 10, 0, 10],
        ['the last rows, in the short last chunk', 990, 1000, 990, 1000],
        ['everything', 0, ROWS, 0, ROWS],
        ['clipped at the start', -50, 20, 0, 20],
        ['clipped at the end', 980, 5000, 980, 1000],
        ['to Infinity', 900, Infinity, 900, 1000],
        ['from -Infinity', -Infinity, 3, 0, 3],
        ['empty (from = to)', 300, 300, 0, 0],
        ['empty (from > to)', 400, 300, 0, 0],
        ['empty (past the end)', 1000, 1100, 0, 0],
      ]
      for (const [title, from, to, lo, hi] of cases) {
        it(`reads ${title}`, async () => {
          const got = await cache.readRange('r', from, to)
          expectSameResult(got, slice(result, lo, hi))
        })
      }

      it('refuses ranges that are not integers', async () => {
        for (const [from, to] of [
          [NaN, 3],
          [0, NaN],
          [1.5, 3],
          [0, 2.5],
          [Infinity, 3],
        ]) {
          let error: unknown = null
          await cache.readRange('r', from, to).catch((err: unknown) => (error = err))
          expect(error, `${from}..${to}`).to.be.instanceOf(RangeError)
        }
      })

      it('answers null when a chunk the range needs has expired, and still reads the others', async () => {
        const keys = (await cacheKeys(store)).filter((k) => k.endsWith(':3'))
        expect(keys).to.have.length(1)
        await store.del(keys[0])
        expect(await cache.readRange('r', 200, 210)).to.equal(null)
        expect(await cache.readRange('r', 190, 193)).to.equal(null)
        expectSameResult(await cache.readRange('r', 0, 100), slice(result, 0, 100))
      })
    })

    describe('fetching only what a range needs', () => {
      it('reads the meta and one chunk for 100 rows inside a chunk of a 100,000-row result, two across a boundary', async function () {
        this.timeout(20_000)
        const result = makeResult(100_000)
        await new ResultStore(store, { ttl: 60 }).save('big', result)
        const counting = countingStore(store)
        const cache = new ResultStore(counting.store, { ttl: 60 })

        expectSameResult(await cache.readRange('big', 50_000, 50_100), slice(result, 50_000, 50_100))
        expect(counting.reads).to.deep.equal({ calls: ['get', 'mget'], keys: 2 })

        counting.reads.calls = []
        counting.reads.keys = 0
        // 4096 * 12 = 49152: this range straddles the boundary between chunks 11 and 12.
        expectSameResult(await cache.readRange('big', 49_100, 49_200), slice(result, 49_100, 49_200))
        expect(counting.reads).to.deep.equal({ calls: ['get', 'mget'], keys: 3 })

        counting.reads.calls = []
        counting.reads.keys = 0
        await cache.meta('big')
        expect(counting.reads).to.deep.equal({ calls: ['get'], keys: 1 })
      })
    })

    describe('lifetime', () => {
      it('answers null once the TTL has passed, and the chunks go too', async function () {
        this.timeout(10_000)
        const cache = new ResultStore(store, { ttl: 1, chunkRows: 16 })
        const result = makeResult(100)
        await cache.save('short', result)
        expectSameResult(await cache.readRange('short', 10, 20), slice(result, 10, 20))
        await sleep(1200)
        expect(await cache.readRange('short', 10, 20)).to.equal(null)
        expect(await cache.meta('short')).to.equal(null)
        expect(await cache.touch('short')).to.equal(false)
        // Chunks outlive their meta by one second at most, then nothing is left.
        await sleep(1100)
        expect(await cacheKeys(store)).to.deep.equal([])
      })

      it('gives the meta the TTL and the chunks one second more, and touch restores both', async () => {
        const cache = new ResultStore(store, { ttl: 100, chunkRows: 16 })
        await cache.save('t', makeResult(100))
        const keys = await cacheKeys(store)
        expect(keys).to.have.length(8)
        // Seconds left: the TTL for the meta, one more for chunks (less up to a second of rounding).
        const expectFullTtls = async (): Promise<void> => {
          for (const key of keys) {
            const extra = key.endsWith(':meta') ? 0 : 1
            expect(await store.ttl(key), key).to.be.within(99 + extra, 100 + extra)
          }
        }
        await expectFullTtls()
        for (const key of keys) await store.expire(key, 5)
        expect(await cache.touch('t')).to.equal(true)
        await expectFullTtls()
      })

      it('drop deletes the meta and every chunk', async () => {
        const cache = new ResultStore(store, { ttl: 60, chunkRows: 16 })
        await cache.save('d', makeResult(100))
        await cache.save('other', makeResult(10))
        expect(await cache.drop('d')).to.equal(true)
        expect(await cache.readRange('d', 0, 10)).to.equal(null)
        expect(await cache.meta('d')).to.equal(null)
        expect((await cacheKeys(store)).filter((k) => k.startsWith('res:d:'))).to.deep.equal([])
        expect(await cache.drop('d')).to.equal(false)
        expect(await cache.meta('other')).to.not.equal(null)
      })

      it('saving a key again replaces the result and removes the old chunks', async () => {
        const cache = new ResultStore(store, { ttl: 60, chunkRows: 16 })
        await cache.save('again', makeResult(100, 1))
        const second = makeResult(40, 2)
        expect(await cache.save('again', second)).to.equal('saved')
        expectSameResult(await cache.readRange('again', 0, Infinity), second)
        expect(await cacheKeys(store)).to.have.length(1 + 3)
      })

      it('treats a meta it cannot read as no result', async () => {
        const cache = new ResultStore(store, { ttl: 60 })
        await store.set('res:weird:meta', '{"v":99}')
        expect(await cache.meta('weird')).to.equal(null)
        expect(await cache.readRange('weird', 0, 1)).to.equal(null)
      })
    })

    describe('size guard', () => {
      it('refuses a result whose size is known to be over budget before writing anything', async () => {
        const writes: string[] = []
        const spy = new Proxy(store, {
          get: (target, prop, receiver) => {
            const value = Reflect.get(target, prop, receiver) as unknown
            if (typeof value !== 'function') return value
            const isWrite = ['set', 'batch', 'del', 'expire'].includes(String(prop))
            return (...args: unknown[]) => (isWrite && writes.push(String(prop)), (value as (...a: unknown[]) => unknown).apply(target, args))
          },
        })
        const cache = new ResultStore(spy, { ttl: 60, maxBytes: 100_000 })
        expect(await cache.save('huge', makeResult(20_000))).to.equal('too-large')
        expect(writes).to.deep.equal([])
        expect(await cacheKeys(store)).to.deep.equal([])
      })

      it('removes an earlier result under the key when the new one is too large', async () => {
        const cache = new ResultStore(store, { ttl: 60, chunkRows: 16, maxBytes: 100_000 })
        await cache.save('stale', makeResult(100))
        await new ResultStore(store, { ttl: 60, chunkRows: 16, maxBytes: 100_000 }).save('kept', makeResult(10))
        expect(await cache.save('stale', makeResult(20_000))).to.equal('too-large')
        expect(await cache.readRange('stale', 0, 10)).to.equal(null)
        expect((await cacheKeys(store)).filter((k) => k.startsWith('res:stale:'))).to.deep.equal([])
        expect(await cache.meta('kept')).to.not.equal(null)
      })

      it('stops and cleans up when the bytes written pass the budget', async () => {
        // Three-byte characters: the quick lower bound (one per character) passes, the real size does not.
        const rows = 4000
        const wide: ResultSet = {
          cols: [columnMeta({ name: 's', type: 'text' })],
          columns: [{ kind: 'text', data: Array.from({ length: rows }, (_, i) => `日本語テキスト${i % 10}`) }],
          rowCount: rows,
        }
        const cache = new ResultStore(store, { ttl: 60, chunkRows: 100, batchBytes: 4096, maxBytes: 60_000 })
        expect(await cache.save('wide', wide)).to.equal('too-large')
        expect(await cacheKeys(store)).to.deep.equal([])
        expect(await new ResultStore(store, { ttl: 60, chunkRows: 100, maxBytes: 1_000_000 }).save('wide', wide)).to.equal('saved')
      })

      it('keeps a result right at the budget', async () => {
        const result = makeResult(500)
        const probe = new ResultStore(store, { ttl: 60, chunkRows: 50 })
        await probe.save('probe', result)
        const bytes = (await probe.meta('probe'))!.bytes
        expect(await new ResultStore(store, { ttl: 60, chunkRows: 50, maxBytes: bytes }).save('exact', result)).to.equal('saved')
        expect(await new ResultStore(store, { ttl: 60, chunkRows: 50, maxBytes: bytes - 1 }).save('over', result)).to.equal('too-large')
        expect(await probe.meta('over')).to.equal(null)
      })
    })

    describe('concurrency', () => {
      it('a reader racing a first save sees nothing until the result is complete, then all of it', async function () {
        this.timeout(20_000)
        const rows = 20_000
        const result = makeResult(rows, 3)
        // Small chunks and batches: the save takes many round trips for the reader to slip between.
        const cache = new ResultStore(store, { ttl: 60, chunkRows: 128, batchBytes: 16_384 })
        let done = false
        const seen = { none: 0, complete: 0 }
        const reader = (async () => {
          let i = 0
          while (!done) {
            const from = (i++ * 7919) % rows
            // Meta first, then rows: once a meta is visible, every chunk it names must be there.
            const meta = await cache.meta('race')
            const got = await cache.readRange('race', from, from + 300)
            if (meta !== null) expect(got, 'rows after their meta was visible').to.not.equal(null)
            if (got === null) {
              expect(seen.complete, 'a result vanished after it appeared').to.equal(0)
              seen.none++
            } else {
              expectSameResult(got, slice(result, from, Math.min(rows, from + 300)))
              seen.complete++
            }
            if (kind === 'memory') await sleep(0)
          }
        })()
        // Marked handled now: a failing reader surfaces at `await reader` below, not as a warning.
        reader.catch(() => undefined)
        expect(await cache.save('race', result)).to.equal('saved')
        await sleep(20)
        done = true
        await reader
        expect(seen.none, 'reads during the save').to.be.greaterThan(0)
        expect(seen.complete, 'reads after the save').to.be.greaterThan(0)
      })

      it('a reader racing a replacing save sees the old result or the new one, never a mix', async function () {
        this.timeout(20_000)
        const rows = 20_000
        const first = makeResult(rows, 1)
        const second = makeResult(rows, 2)
        const cache = new ResultStore(store, { ttl: 60, chunkRows: 128, batchBytes: 16_384 })
        await cache.save('swap', first)
        let done = false
        const seen = { first: 0, second: 0 }
        const reader = (async () => {
          let i = 0
          while (!done) {
            const from = (i++ * 4099) % rows
            const got = await cache.readRange('swap', from, from + 500)
            const to = Math.min(rows, from + 500)
            expect(got, 'a read during a replacement').to.not.equal(null)
            if (sameResult(got!, slice(first, from, to))) seen.first++
            else {
              expectSameResult(got, slice(second, from, to))
              seen.second++
            }
            if (kind === 'memory') await sleep(0)
          }
        })()
        reader.catch(() => undefined)
        expect(await cache.save('swap', second)).to.equal('saved')
        await sleep(20)
        done = true
        await reader
        expect(seen.first, 'reads of the old result').to.be.greaterThan(0)
        expect(seen.second, 'reads of the new result').to.be.greaterThan(0)
        expect(await cacheKeys(store)).to.have.length(1 + Math.ceil(rows / 128))
      })

      it('of two saves racing on one key, one result is kept whole and no chunks are left behind', async () => {
        const cache = new ResultStore(store, { ttl: 60, chunkRows: 64, batchBytes: 8192 })
        const a = makeResult(3000, 1)
        const b = makeResult(2000, 2)
        const outcomes = await Promise.all([cache.save('two', a), cache.save('two', b)])
        expect(outcomes).to.include('saved')
        const meta = (await cache.meta('two'))!
        const kept = meta.rowCount === 3000 ? a : b
        expectSameResult(await cache.readRange('two', 0, Infinity), kept)
        expect(await cacheKeys(store)).to.have.length(1 + meta.chunks)
      })

      it('a drop during a replacing save wins: the save ends superseded and leaves nothing', async () => {
        // Drop exactly when the save has started writing chunks: after it read the old meta.
        let armed = false
        let writing!: () => void
        const started = new Promise<void>((resolve) => (writing = resolve))
        const watched = new Proxy(store, {
          get: (target, prop, receiver) => {
            const value = Reflect.get(target, prop, receiver) as unknown
            if (prop !== 'batch' || typeof value !== 'function') return value
            return (...args: unknown[]) => (armed && writing(), (value as (...a: unknown[]) => unknown).apply(target, args))
          },
        })
        const cache = new ResultStore(watched, { ttl: 60, chunkRows: 64, batchBytes: 8192 })
        await cache.save('gone', makeResult(100))
        armed = true
        const saving = cache.save('gone', makeResult(5000, 4))
        await started
        await cache.drop('gone')
        expect(await saving).to.equal('superseded')
        expect(await cacheKeys(store)).to.deep.equal([])
      })
    })

    describe('failures', () => {
      it('a save whose store write fails rejects and leaves no chunks behind', async () => {
        let batches = 0
        const failing = new Proxy(store, {
          get: (target, prop, receiver) => {
            const value = Reflect.get(target, prop, receiver) as unknown
            if (prop !== 'batch' || typeof value !== 'function') return value
            // The third batch fails while the fourth is being encoded: the pipelined path.
            return async (...args: unknown[]) => {
              if (++batches === 3) throw new Error('store went away')
              return (value as (...a: unknown[]) => unknown).apply(target, args)
            }
          },
        })
        const cache = new ResultStore(failing, { ttl: 60, chunkRows: 64, batchBytes: 8192 })
        let error: unknown = null
        await cache.save('fails', makeResult(5000)).catch((err: unknown) => (error = err))
        expect(String(error)).to.contain('store went away')
        expect(await cacheKeys(store)).to.deep.equal([])
        expect(await cache.readRange('fails', 0, 10)).to.equal(null)
      })
    })

    describe('arguments', () => {
      it('refuses bad options and malformed results', async () => {
        expect(() => new ResultStore(store, { ttl: 0 })).to.throw(RangeError)
        expect(() => new ResultStore(store, { ttl: 1.5 })).to.throw(RangeError)
        expect(() => new ResultStore(store, { ttl: 10, chunkRows: 0 })).to.throw(RangeError)
        expect(() => new ResultStore(store, { ttl: 10, maxBytes: -1 })).to.throw(RangeError)
        const cache = new ResultStore(store, { ttl: 10 })
        const result = makeResult(10)
        let error: unknown = null
        await cache.save('bad', { ...result, cols: result.cols.slice(1) }).catch((err: unknown) => (error = err))
        expect(error).to.be.instanceOf(TypeError)
        error = null
        await cache.save('bad', { ...result, rowCount: 11 }).catch((err: unknown) => (error = err))
        expect(error).to.be.instanceOf(TypeError)
      })
    })
  })
}
