/** The CommonJS door of sqlite-image-task.ts, for the reason write-task-door.cts gives. */
import type { SqliteImageOutcome, SqliteImageTask } from './sqlite-image-task.js'

const builder = import('./sqlite-image-task.js')

export = async function sqliteImageTask(task: SqliteImageTask): Promise<SqliteImageOutcome> {
  return (await builder).default(task)
}
