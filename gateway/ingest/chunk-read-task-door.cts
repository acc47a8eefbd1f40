/** The CommonJS door of chunk-read-task.ts, for the reason engine/storage/write-task-door.cts gives. */
import type { ChunkReadTask } from './chunk-read-task.js'

const reader = import('./chunk-read-task.js')

export = async function chunkReadTask(task: ChunkReadTask): Promise<unknown> {
  return (await reader).default(task)
}
