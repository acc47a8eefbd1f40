/**
 * The file the query pool's threads load. Piscina loads its task file with require() first, and
 * on Node 20.19+ require() of an ES module is synchronous: a thread ended while doing it (a pool
 * closed moments after it started) aborted the whole process inside V8 ("IsGraphAsync must be
 * used on an instantiated module"). This CommonJS door loads the engine with import() instead,
 * which an ended thread abandons cleanly. The import starts when the thread starts, so a spare
 * thread is ready before its first task.
 */
import type { EngineTask } from '../shared/protocol.js'

const engine = import('./worker.js')

export = async function runTask(task: EngineTask): Promise<unknown> {
  return (await engine).default(task)
}
