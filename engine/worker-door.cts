/**
 * The file the query pool's threads load. Piscina loads its task file with require() first, and
 * on Node 20.19+ require() of an ES module is synchronous: a thread ended while doing it (a pool
 * closed moments after it started) aborted the whole process inside V8 ("IsGraphAsync must be
 * used on an instantiated module"). This CommonJS door loads the engine with import() instead,
 * which an ended thread abandons cleanly.
 *
 * The handler (handleTask, worker.ts's default export) is exported as a promise that Piscina
 * awaits before the thread reports ready. Exporting the function itself let the thread report
 * ready at once, and an idle Piscina thread sleeps in Atomics.wait, which stops its event loop:
 * the engine's import stalled until the first task arrived, so that task paid the whole load
 * (about 200 ms), and the spare thread kept for a worker taken back (gateway/pool/fair-share.ts)
 * was never warm.
 */
import type { EngineTask } from '../shared/protocol.js'

type Handler = (task: EngineTask) => unknown

const handler: Promise<Handler> = import('./worker.js').then((m) => m.default as Handler)

export = { __esModule: true, default: handler }
