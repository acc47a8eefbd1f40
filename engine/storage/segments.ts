/**
 * Row segments (docs/large-tables.md). A version of more than TABLE_SEGMENT_ROWS rows is written
 * as segments of that many rows, one file per column and segment (layout.ts segmentFile), with the
 * first row of each segment in meta.json (`segments`). Any row range of any version, segmented
 * or not, is read here from just the files that cover it, so a query over a table larger than
 * TABLE_CACHE_MB holds a range of rows at a time, never the whole table.
 */
import './endian.js'
import { open } from 'node:fs/promises'
import { join } from 'node:path'
import { AppError } from '../../shared/errors.js'
import { bytesPerValue, NA_BIGINT, type TableMeta } from '../../shared/table.js'
import { damaged, describe } from './damaged.js'
import { columnFile, segmentFile, versionDir } from './layout.js'

/** Default rows per segment: 1 Mi rows, 4 or 8 MiB per column, two summing blocks (parallel/blocks.ts). */
export const DEFAULT_SEGMENT_ROWS = 1 << 20

/** The first row of each segment of a table of `rows` rows; undefined when one segment holds them all. */
export function segmentStartsFor(rows: number, segmentRows: number): number[] | undefined {
  if (!Number.isSafeInteger(segmentRows) || segmentRows < 1) throw new AppError('INTERNAL', `Invalid segment size ${segmentRows}.`)
  if (rows <= segmentRows) return undefined
  const starts: number[] = []
  for (let s = 0; s < rows; s += segmentRows) starts.push(s)
  return starts
}

/** The first row of each segment of a version (one segment from row 0 when it is not segmented). */
export const segmentStarts = (meta: TableMeta): readonly number[] => meta.segments ?? [0]

/** Why `segments` (meta.json) is not a valid segment list for `rows` rows, or undefined. */
export function checkSegments(segments: unknown, rows: number): string | undefined {
  if (segments === undefined) return undefined
  if (!Array.isArray(segments) || segments.length === 0 || segments[0] !== 0) return 'bad segments'
  for (let k = 1; k < segments.length; k++) {
    const s: unknown = segments[k]
    if (!Number.isSafeInteger(s) || (s as number) <= (segments[k - 1] as number) || (s as number) >= rows) return 'bad segments'
  }
  return undefined
}

/** The file of segment `k` of column `index`, and its rows. */
function segmentOf(meta: TableMeta, index: number, k: number): { file: string; start: number; end: number } {
  const starts = segmentStarts(meta)
  const end = k + 1 < starts.length ? starts[k + 1] : meta.rows
  return { file: meta.segments === undefined ? columnFile(index) : segmentFile(index, k), start: starts[k], end }
}

/**
 * Rows from … to-1 of column `index` of `meta`'s version, as raw little-endian bytes, into `into`
 * (exactly (to-from) values long). Each file read is checked against the rows its segment holds.
 */
export async function readRowsInto(dataDir: string, meta: TableMeta, index: number, from: number, to: number, into: Uint8Array): Promise<void> {
  const spec = meta.columns[index]
  if (spec === undefined || from < 0 || to > meta.rows || from > to) {
    throw new AppError('INTERNAL', `Table version ${meta.version} has no rows ${from}…${to} of column ${index}.`)
  }
  const width = bytesPerValue(spec.type)
  const dir = versionDir(dataDir, meta.version)
  const starts = segmentStarts(meta)
  for (let k = 0; k < starts.length; k++) {
    const seg = segmentOf(meta, index, k)
    const lo = Math.max(from, seg.start)
    const hi = Math.min(to, seg.end)
    // An empty range still checks the one file it falls in.
    if (hi < lo || (hi === lo && from !== to)) continue
    const need = `${seg.end - seg.start} rows of ${spec.type}`
    await readPart(join(dir, seg.file), need, (seg.end - seg.start) * width, (lo - seg.start) * width, into.subarray((lo - from) * width, (hi - from) * width))
  }
  if (spec.type === 'bigint' && meta.int64 !== true) float64sToInt64s(into)
}

/**
 * A big-integer column of a version written before they were 64-bit: its float64 values (whole,
 * within ±2^53, NaN for N/A) made int64 in place, so every reader sees one layout.
 */
function float64sToInt64s(bytes: Uint8Array): void {
  const n = bytes.byteLength / 8
  const floats = new Float64Array(bytes.buffer, bytes.byteOffset, n)
  const ints = new BigInt64Array(bytes.buffer, bytes.byteOffset, n)
  for (let i = 0; i < n; i++) {
    const v = floats[i]
    ints[i] = v === v ? BigInt(v) : NA_BIGINT
  }
}

/** Bytes at `offset` of `file` into all of `into`; the file must hold exactly `size` bytes (`need`, in words). */
async function readPart(file: string, need: string, size: number, offset: number, into: Uint8Array): Promise<void> {
  let fh
  try {
    fh = await open(file, 'r')
  } catch (e) {
    throw damaged(file, describe(e), e)
  }
  try {
    const { size: actual } = await fh.stat()
    if (actual !== size) throw damaged(file, `${actual} bytes where ${need} need ${size}`)
    let done = 0
    while (done < into.byteLength) {
      // One read call moves at most 2 GiB; keep chunks well under that.
      const { bytesRead } = await fh.read(into, done, Math.min(into.byteLength - done, 1 << 30), offset + done)
      if (bytesRead === 0) throw damaged(file, `file ended after ${offset + done} of ${size} bytes`)
      done += bytesRead
    }
  } finally {
    await fh.close()
  }
}

/**
 * One column of a version being written a slice at a time (chunked.ts), into its one file or its
 * segment files: bytes are appended in row order and each segment's file is opened as its first
 * row arrives. close() fsyncs and closes every file; the caller closes it on failure too.
 */
export class ColumnOut {
  private readonly files: Awaited<ReturnType<typeof open>>[] = []
  private row = 0

  constructor(
    private readonly dir: string,
    private readonly meta: TableMeta,
    private readonly index: number,
  ) {}

  /** The path of the column's one file when the version is not segmented (a whole copy may go there). */
  get single(): string | null {
    return this.meta.segments === undefined ? join(this.dir, columnFile(this.index)) : null
  }

  /** Appends whole values (a slice's bytes, a whole number of values). */
  async write(bytes: Uint8Array): Promise<void> {
    const width = bytesPerValue(this.meta.columns[this.index].type)
    const starts = segmentStarts(this.meta)
    let at = 0
    while (at < bytes.byteLength) {
      const k = this.segmentOfRow(starts)
      const seg = segmentOf(this.meta, this.index, k)
      if (this.files.length <= k) this.files.push(await open(join(this.dir, seg.file), 'wx'))
      const n = Math.min((bytes.byteLength - at) / width, seg.end - this.row)
      const part = bytes.subarray(at, at + n * width)
      let done = 0
      while (done < part.byteLength) {
        const { bytesWritten } = await this.files[k].write(part, done, part.byteLength - done, (this.row - seg.start) * width + done)
        done += bytesWritten
      }
      this.row += n
      at += n * width
    }
  }

  private segmentOfRow(starts: readonly number[]): number {
    let k = starts.length - 1
    while (k > 0 && starts[k] > this.row) k--
    return k
  }

  /** fsyncs and closes the files; an empty column still gets its one (empty) file. */
  async close(ok: boolean): Promise<void> {
    if (ok && this.files.length === 0) this.files.push(await open(join(this.dir, segmentOf(this.meta, this.index, 0).file), 'wx'))
    try {
      if (ok) for (const f of this.files) await f.sync()
    } finally {
      for (const f of this.files) await f.close()
    }
  }
}
