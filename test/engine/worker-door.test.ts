/**
 * engine/worker-door.cts, the CommonJS file the query pool's threads load: it must export, as
 * `default`, a promise of the engine's task handler (Piscina awaits it before the thread reports
 * ready, so the engine is loaded before the first task; see the door's header).
 */
import { expect } from 'chai'
import { createRequire } from 'node:module'
import handleTask from '../../engine/worker.js'

const require = createRequire(import.meta.url)

describe('engine/worker-door.cts', () => {
  it("loads with require() and exports a promise of worker.ts's handler as default", async () => {
    const door = require('../../engine/worker-door.cjs') as { __esModule: boolean; default: unknown }
    expect(door.__esModule).to.equal(true)
    expect(door.default).to.be.instanceOf(Promise)
    expect(await door.default).to.equal(handleTask)
  })
})
