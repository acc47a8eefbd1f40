/**
 * Where table versions live on disk. Every path the storage layer touches is built here, so the
 * layout is written down once and a version id can never smuggle a path into it.
 *
 * ```
 * DATA_DIR/tables/
 *   .tmp-XXXXXX/          a version being written (never read)
 *   v0mabc1234-1a2b3c4d/  one immutable version
 *     meta.json           TableMeta
 *     c0.bin, c1.bin…     little-endian column bytes (Int32 or Float64; text: Int32 codes)
 *     c0.s0.bin, c0.s1.bin… instead, in a version stored in row segments (meta.json `segments`):
 *                         the rows of segment k of column 0 (segments.ts)
 *     c2.dict.json        dictionary of a text column (index 0 = '' = N/A)
 *     data.sqlite         SQLite image for api/sql's sql.js fallback, added by the first query
 *                         that needs it (sqlite-image-add.ts); written whole as
 *   .tmp-XXXXXX.sqlite    and renamed into the version folder
 * ```
 */
import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import { AppError } from '../../shared/errors.js'

/** File name of a version's metadata. */
export const META_FILE = 'meta.json'

/** File name of a version's SQLite image, once it is built (meta.json does not name it). */
export const SQLITE_FILE = 'data.sqlite'

/** Prefix of the folders that versions are written into before they are renamed into place. */
export const TEMP_PREFIX = '.tmp-'

/** Folder that holds every table version. */
export function tablesDir(dataDir: string): string {
  return join(dataDir, 'tables')
}

/** Folder of one table version; throws if `version` is not a well-formed version id. */
export function versionDir(dataDir: string, version: string): string {
  // Version ids come from the catalog, never from a request, so a bad one is our bug (INTERNAL).
  if (!isVersionId(version)) throw new AppError('INTERNAL', `Invalid table version id ${JSON.stringify(version)}.`)
  return join(tablesDir(dataDir), version)
}

/** File name of column `index`'s values (text: dictionary codes). */
export function columnFile(index: number): string {
  return `c${checkIndex(index)}.bin`
}

/** File name of segment `segment`'s values of column `index`, in a version stored in row segments. */
export function segmentFile(index: number, segment: number): string {
  return `c${checkIndex(index)}.s${checkIndex(segment)}.bin`
}

/** File name of text column `index`'s dictionary. */
export function dictFile(index: number): string {
  return `c${checkIndex(index)}.dict.json`
}

function checkIndex(index: number): number {
  if (!Number.isSafeInteger(index) || index < 0) throw new AppError('INTERNAL', `Invalid column index ${index}.`)
  return index
}

// 9 base-36 digits cover timestamps until the year 5188, so the ids sort as plain strings.
const TIME_DIGITS = 9
const VERSION_ID = /^v[0-9a-z]{9}-[0-9a-f]{8}$/

// Last timestamp handed out by this process: ids made in the same millisecond (or after the
// clock steps back) still sort in creation order within one process.
let lastMs = 0

/**
 * A new version id: `v` + base-36 millisecond timestamp + `-` + 8 random hex digits. Ids sort by
 * creation time as strings; the random part keeps ids from different processes apart.
 */
export function newVersionId(): string {
  lastMs = Math.max(Date.now(), lastMs + 1)
  return `v${lastMs.toString(36).padStart(TIME_DIGITS, '0')}-${randomBytes(4).toString('hex')}`
}

/** True if `s` has exactly the shape newVersionId produces (so it is safe as a folder name). */
export function isVersionId(s: unknown): s is string {
  return typeof s === 'string' && VERSION_ID.test(s)
}
