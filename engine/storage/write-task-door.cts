/**
 * The file the table writer's threads load: the CommonJS door of engine/worker-door.cts, for the
 * same reason (a thread ended while require() loaded an ES module aborted the process).
 */
import type { WriteOutcome, WriteTask } from './write-task.js'

const writer = import('./write-task.js')

export = async function writeTask(task: WriteTask): Promise<WriteOutcome> {
  return (await writer).default(task)
}
