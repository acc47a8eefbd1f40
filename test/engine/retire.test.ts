import { expect } from 'chai'
import { Worker } from 'node:worker_threads'
import { retireThisWorker } from '../../engine/retire.js'

const RETIRE_MODULE = new URL('../../engine/retire.js', import.meta.url).href

/** Runs retireThisWorker `calls` times in a fresh worker thread; resolves with that thread's id. */
function retireInWorker(retiring: Int32Array, calls: number): Promise<number> {
  const code = `
    const { workerData, parentPort } = require('node:worker_threads')
    import(workerData.module).then(({ retireThisWorker }) => {
      for (let i = 0; i < workerData.calls; i++) retireThisWorker(workerData.retiring)
      parentPort.postMessage('done')
    })`
  const worker = new Worker(code, { eval: true, workerData: { module: RETIRE_MODULE, retiring, calls } })
  return new Promise((resolve, reject) => {
    worker.once('error', reject)
    worker.once('message', () => {
      const id = worker.threadId
      void worker.terminate().then(() => resolve(id))
    })
  })
}

describe('engine/retire.ts: retireThisWorker()', () => {
  it('marks nothing from the main thread (InlineRunner): there is no worker to replace', () => {
    const retiring = new Int32Array(new SharedArrayBuffer(4 * 4))
    retireThisWorker(retiring)
    expect([...retiring]).to.deep.equal([0, 0, 0, 0])
  })

  it('writes a worker thread id into the first free slot of the shared table, once however often it is called', async () => {
    const retiring = new Int32Array(new SharedArrayBuffer(4 * 4))
    retiring[0] = 999 // a slot taken by another retiring worker
    const id = await retireInWorker(retiring, 3)
    expect(id).to.be.above(0)
    expect([...retiring]).to.deep.equal([999, id, 0, 0])
  })

  it("leaves a full table alone rather than overwrite another worker's mark", async () => {
    const retiring = new Int32Array(new SharedArrayBuffer(2 * 4))
    retiring.set([7, 8])
    await retireInWorker(retiring, 1)
    expect([...retiring]).to.deep.equal([7, 8])
  })
})
