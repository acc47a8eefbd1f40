/**
 * Issue 16, part 2: the two races that could leave a dropped group's name in an access list,
 * forced deterministically rather than hoped for. The real dbm transactions (share, drop_group)
 * run against the memory store and a real redis-server; a Store wrapper pauses one of them just
 * before its commit and runs the other to completion in that gap.
 *
 * - A grant commits between the drop's last read and its commit: the drop must not commit its
 *   stale view (it watches the name's refs revision, which the grant writes), and its retry must
 *   take the new entry out.
 * - A drop commits between the grant's name check and its commit: the grant must not commit
 *   (it checks the name under watch) and must fail with a clear 4xx.
 * Without the guard, both ended with "fin" listed by a folder and no group "fin".
 */
import { expect } from 'chai'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import { AppError } from '../../shared/errors.js'
import { createMemoryStore, createRedisStore } from '../../shared/store/index.js'
import type { Store, WriteOp } from '../../shared/store/types.js'
import type { Principal } from '../../gateway/catalog/principal.js'
import { KEYS, type DirRecord, type GroupRecord } from '../../gateway/catalog/records.js'
import { createDir } from '../../gateway/catalog/tables.js'
import { GROUPS_TRANSACTIONS } from '../../gateway/dbm/groups.js'
import { TABLES_TRANSACTIONS } from '../../gateway/dbm/tables.js'
import type { DbmContext, Transaction } from '../../gateway/dbm/registry.js'
import { redisAvailable } from '../helpers/service.js'

const ADMIN: Principal = { uid: 'admin', company: 'main', groups: [], caps: new Set(['admin']), admin: true }

const transaction = (list: readonly Transaction[], name: string): Transaction => list.find((t) => t.name === name)!
const SHARE = transaction(TABLES_TRANSACTIONS, 'share')
const DROP_GROUP = transaction(GROUPS_TRANSACTIONS, 'drop_group')

/** Runs a dbm transaction as the administrator against `store` (only what these two read). */
const run = (t: Transaction, store: Store, params: Record<string, unknown>): Promise<unknown> =>
  t.run({ deps: { store }, user: ADMIN } as unknown as DbmContext, params)

/**
 * `store`, except that the first conditional batch whose writes match `when` first awaits `gap`
 * (then goes ahead as it would have). Everything else is passed through unchanged.
 */
function pausingStore(store: Store, when: (ops: readonly WriteOp[]) => boolean, gap: () => Promise<void>): Store {
  let armed = true
  return new Proxy(store, {
    get(target, prop, receiver) {
      if (prop === 'batch') {
        return async (ops: readonly WriteOp[], token?: Parameters<Store['batch']>[1]) => {
          if (armed && token && when(ops)) {
            armed = false
            await gap()
          }
          return target.batch(ops, token)
        }
      }
      const value = Reflect.get(target, prop, receiver) as unknown
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value
    },
  })
}

async function seed(store: Store): Promise<void> {
  const now = new Date().toISOString()
  const group: GroupRecord = { group: 'fin', owner: 'admin', company: 'main', users: [], title: 'fin', description: '', created: now, updated: now }
  await store.batch([
    { op: 'set', key: KEYS.user('admin'), value: JSON.stringify({ uid: 'admin', company: 'main', roles: ['admin'], active: true }) },
    { op: 'set', key: KEYS.group('fin'), value: JSON.stringify(group) },
    { op: 'sadd', key: KEYS.allGroups, members: ['fin'] },
  ])
  await createDir(store, { path: 'pay', owner: 'admin', users: [], inherit: false })
}

const dirUsers = async (store: Store, path: string): Promise<string[] | null> => {
  const raw = await store.get(KEYS.dir(path))
  return raw === null ? null : ((JSON.parse(raw) as DirRecord).users as string[])
}

const dropsFin = (ops: readonly WriteOp[]): boolean => ops.some((o) => o.op === 'del' && o.key === KEYS.group('fin'))
const writesPay = (ops: readonly WriteOp[]): boolean => ops.some((o) => o.op === 'set' && o.key === KEYS.dir('pay'))

for (const kind of ['memory', 'redis'] as const) {
  describe(`security: grants racing with drop_group (${kind} store)`, function () {
    let store: Store
    let dataDir: string
    beforeEach(async function () {
      if (kind === 'redis' && !redisAvailable()) return this.skip()
      dataDir = await mkdtemp(join(tmpdir(), 'tabula-principals-race-'))
      store =
        kind === 'redis'
          ? createRedisStore(process.env.TEST_REDIS_URL!, { keyPrefix: `test:${randomBytes(6).toString('hex')}:` })
          : createMemoryStore({ dataDir })
      await store.connect()
      await seed(store)
    })
    afterEach(async () => {
      if (!store) return
      if (kind === 'redis') {
        const keys = await store.keys('')
        if (keys.length > 0) await store.del(...keys)
      }
      await store.close()
      await rm(dataDir, { recursive: true, force: true })
    })

    it('a grant committed just before the drop commits is taken out by the drop', async () => {
      let granted: unknown
      const paused = pausingStore(store, dropsFin, async () => {
        granted = await run(SHARE, store, { path: 'pay', add: ['fin'] })
      })
      expect(await run(DROP_GROUP, paused, { group: 'fin' })).to.equal(true)
      expect(granted).to.deep.include({ users: ['fin'] })
      expect(await store.get(KEYS.group('fin'))).to.equal(null)
      expect(await dirUsers(store, 'pay')).to.deep.equal([])
    })

    it('a grant whose check ran before the drop committed is refused, not committed', async () => {
      const paused = pausingStore(store, writesPay, async () => {
        await run(DROP_GROUP, store, { group: 'fin' })
      })
      const err = await run(SHARE, paused, { path: 'pay', add: ['fin'] }).then(
        () => null,
        (e: unknown) => e,
      )
      expect(err).to.be.instanceOf(AppError)
      expect((err as AppError).code).to.equal('INVALID_PARAMETER')
      expect((err as AppError).message).to.match(/^Invalid user or group name in "add": fin/)
      expect(await dirUsers(store, 'pay')).to.deep.equal([])
    })
  })
}
