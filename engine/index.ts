/**
 * The engine's one door: everything the gateway may use of the engine, and nothing else
 * (test/architecture/import-boundaries.test.ts fails the build when gateway/ imports any other
 * engine file). The engine's other entries are its threads, loaded by file rather than imported:
 * engine/worker.ts (queries), engine/storage/write-task.ts (large table writes) and
 * engine/storage/sqlite-image-task.ts (SQLite images built for the sql.js fallback).
 *
 * Keep it short. Before adding a name, prefer a small engine-side function that does the whole
 * job over handing the gateway the internals to do it with (compile.ts is one). Names are listed,
 * never `export *`, so that the door cannot widen without a line here.
 */

// --- Compile: pure, so the gateway answers a bad query with an early 400 and caches what it compiled.

/** The data-only operations a query parses to. */
export type { Op } from './ast.js'
/** The operations checkMacro passed, which the gateway caches and a RunTask carries to a worker. */
export type { CheckedOps } from './check/index.js'
/** Parse and check a macro query, and guard an SQL text (gateway/cache/compiled-queries.ts). */
export { checkMacro, guardSql, parseMacro, type ParsedQuery } from './compile.js'
/** The gateway points an SQL text's dotted table names at the versions it resolved (gateway/query/sql.ts). */
export { rewriteTableRefs } from './sql/index.js'
/** SQL compiled to the engine's operations and checked in one call, or why it runs on sql.js; its answer shaped as sql.js's (gateway/query/sql.ts). */
export { compileSql, loadSqlParser, oneRowTable, ordersAsSqlite, sqlShaped, type Compiled, type CompiledSql, type SqlTableSchema } from './sql/compile/index.js'

// --- Parallel scans: the gateway runs each phase's parts on the pool (gateway/query/parallel.ts).

/** The query's plan, made once and carried by its task (RunTask.plan); whether it splits, and over which table. */
export { planOf, summarises, withPlan } from './parallel/plan.js'
/** How a table's rows are cut into parts (block-aligned when the plan sums). */
export { currentBlockRows } from './parallel/blocks.js'
/** A split run driven phase by phase, the gateway's runner sending each phase's tasks to the pool; their answers merged. */
export { driveSplitRun, partRanges, splitRows } from './parallel/driver.js'
/** Queries over a table larger than TABLE_CACHE_MB, a window of rows at a time (gateway/query/windowed.ts). */
export { windowRanges, windowRefusal } from './parallel/windows.js'
/** A worker's answer, text always as codes, read back into a result set on the gateway (gateway/query/pool.ts). */
export { fromWire } from './parallel/wire.js'
/** Results and tasks as they cross to and from a worker: stored dictionaries by reference (gateway/pool/runner.ts). */
export { resultAfterReceiving, taskForPosting } from './parallel/wire-dictionaries.js'

// --- Workers

/** What a worker answers: a result, an error, or a fallback (to sql.js, to a wide operator, to a whole run), which the gateway follows (gateway/query/fallbacks.ts). */
export { FallbackError, fallbackOf, type Fallback, type TaskOutcome } from './task/outcome.js'

/** What the gateway hands every query worker at start (gateway/pool/runner.ts). */
export type { WorkerSetup } from './retire.js'

// --- Dynamic apps: a pure model; the gateway stores instances and runs their queries (routes/dynamic*.ts, ui/).

/** Reading an app, and the instance id written into its text. */
export { parseDynamic, withInstanceId } from './dynamic/index.js'
/** One request's trigger rounds over an instance's variables. */
export { applyRequest, initialVars, type ActionReport, type RequestOutcome, type RunQuery } from './dynamic/index.js'
/** What each widget runs or shows, and the status table of the changed ones. */
export { changedWidgets, findWidget, statusTable, widgetQuery, widgetText } from './dynamic/index.js'
/** The dbm and savetable actions a widget asks for, which the gateway performs. */
export { actionRequest, actionValueText, type ActionResult, type RunAction, type SaveAction } from './dynamic/index.js'
/** The app and widget types the routes hold. */
export type { DynamicApp, DynamicWidget } from './dynamic/index.js'

// --- Storage: immutable table versions under DATA_DIR, which the gateway's catalog names and caches.

/** Table data as the gateway builds it for a write (uploads, savetable, append). */
export { isYmd, type ColumnValues, type TableInput } from './storage/index.js'
/** Writing, copying and removing versions for the catalog's transactions. */
export { cloneTableVersion, removeTableVersion, versionDir, writeTableVersion } from './storage/index.js'
/** Loading a version's columns into the shared memory the workers read (gateway/tables/table-cache.ts). */
export { loadColumn, loadSqliteImage, readTableMeta, type LoadedColumn } from './storage/index.js'
/** Loading a row range of a version and its dictionaries, for tables larger than TABLE_CACHE_MB (docs/large-tables.md). */
export { loadColumnRows, loadDictionary, segmentStarts } from './storage/index.js'
/** Whether a version's SQLite image (the sql.js fallback's input) is built yet (gateway/tables/table-cache.ts). */
export { hasSqliteImage } from './storage/index.js'
/** Removing what an interrupted write left, at the gateway's start (gateway/server.ts). */
export { removeStaleTempFolders, removeUncommittedVersions } from './storage/index.js'
/** Cell and row size limits, checked on the gateway before it accepts an upload. */
export { checkCellLimits, type CellLimits } from './storage/cell-limits.js'
/** A full disk answered 507, not 500 (gateway/dbm/uploads/apply-chunk.ts). */
export { mapVolumeFull } from './storage/volume-full.js'
/** The message protocol of the table-writer thread (gateway/tables/table-writer.ts). */
export type { TextSlice, WriteOutcome, WriteTask } from './storage/write-task.js'
export type { SqliteImageOutcome, SqliteImageTask } from './storage/sqlite-image-task.js'
/** Column files written a chunk at a time, for dbm upload_begin/upload_chunk/upload_commit. */
export {
  appendColumn,
  appendNa,
  createUploadDir,
  discardUnapplied,
  dropTextCache,
  emptyColumnState,
  removeUploadDir,
  sweepUploadDirs,
  uploadDir,
  widenNumbers,
  writeChunkedVersion,
  type ChunkColumnState,
  type ChunkValues,
} from './storage/chunked.js'

// --- Demo data

/** The retail demo tables the gateway seeds an empty store with (gateway/catalog/seed.ts). */
export { makeRetailDemo } from './demo/index.js'

/** Int operators that widen to big integers after an overflow (expr/widening.ts): the gateway marks and retries. */
export { markWide } from './expr/widening.js'

// --- Editor vocabulary: the workbench's query editors complete these names (gateway/ui/query-page.ts).

/** The macro language's function names (from the registry) and the SQL functions api/sql answers. */
export { macroFunctionNames, SQL_FUNCTION_NAMES } from './vocabulary/functions.js'
