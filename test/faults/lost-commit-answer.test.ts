/**
 * A table commit whose answer is lost. The Store's batch is wrapped so that the one commit of a
 * chosen table misbehaves as a failing store can: applied but answered with UNAVAILABLE (Redis
 * timed out or dropped the connection after receiving it; the memory store could not write its
 * file), applied twice (a client library resending it after a reconnect), or not applied and
 * answered with UNAVAILABLE. Proves that the catalog never ends up pointing at a version that was
 * deleted because the save believed it had failed: the commit is confirmed by reading the table
 * back, and made again when it provably did not land, leaving exactly one version.
 */
import { expect } from 'chai'
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { AppError } from '../../shared/errors.js'
import type { Store, WriteOp } from '../../shared/store/types.js'
import { loggedIn, type TestService } from '../helpers/service.js'
import { forEachStore } from '../helpers/suites.js'

type Misbehaviour = 'applied-then-unavailable' | 'applied-twice' | 'lost'

/** Makes the next batch that writes `cat:table:<path>` misbehave; returns a function that undoes the wrapping. */
function breakNextCommitOf(store: Store, path: string, how: Misbehaviour): () => void {
  const original = store.batch
  const writesTable = (ops: readonly WriteOp[]): boolean => ops.some((op) => op.op === 'set' && op.key === `cat:table:${path}`)
  let armed = true
  const unavailable = (): AppError => new AppError('UNAVAILABLE', 'The store (Redis) is not reachable; try again later.')
  ;(store as { batch: Store['batch'] }).batch = async (ops, token) => {
    if (!armed || !writesTable(ops)) return original(ops, token)
    armed = false
    if (how === 'lost') throw unavailable()
    const applied = await original(ops, token)
    if (how === 'applied-then-unavailable') throw unavailable()
    // Sent again: the watched keys have changed (by the first copy), so this one reports false.
    return applied && original(ops, token)
  }
  return () => {
    ;(store as { batch: Store['batch'] }).batch = original
  }
}

async function versionFolders(svc: TestService): Promise<string[]> {
  return (await readdir(join(svc.dataDir, 'tables'))).filter((n) => !n.startsWith('.')).sort()
}

forEachStore(
  'a table commit whose answer is lost',
  (svc) => {
    const admin = loggedIn(svc)

    const upload = (path: string) => admin.post('/v1/api/dbm:json').send({ cmd: ['upload_table', { path, data: { n: [1, 2, 3] } }] })
    const countRows = (path: string) => admin.post('/v1/api/sql:json').send({ sql: `select count(*) n from ${path}` })

    for (const how of ['applied-then-unavailable', 'applied-twice'] as const) {
      it(`${how}: the save is confirmed from the catalog and answered as done; the table reads`, async () => {
        const path = `uploads.admin.${how.replace(/-/g, '_')}`
        const restore = breakNextCommitOf(svc().deps.store, path, how)
        try {
          const res = await upload(path)
          expect(res.status, res.text).to.equal(200)
          expect(res.body.rc, res.text).to.equal(0)
        } finally {
          restore()
        }
        const read = await countRows(path)
        expect(read.status, read.text).to.equal(200)
        expect(read.body).to.deep.equal({ n: [3] })
      })
    }

    it('lost: the commit is made again once the store answers; one version, no leftover', async () => {
      const path = 'uploads.admin.lost'
      const before = await versionFolders(svc())
      const restore = breakNextCommitOf(svc().deps.store, path, 'lost')
      try {
        const res = await upload(path)
        expect(res.status, res.text).to.equal(200)
        expect(res.body.rc, res.text).to.equal(0)
      } finally {
        restore()
      }
      const read = await countRows(path)
      expect(read.body).to.deep.equal({ n: [3] })
      const added = (await versionFolders(svc())).filter((v) => !before.includes(v))
      expect(added).to.have.length(1)
    })
  },
  {},
  { skip: ['cluster'] },
)
