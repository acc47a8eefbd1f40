/**
 * api/dbm/upload: a file into a table through upload_begin, one upload_chunk per chunk (numbered,
 * one at a time) and upload_commit. The bar moves once per chunk the service has applied; Cancel
 * stops the chunk on its way and sends upload_abort, as does any failure, so nothing half-sent is
 * ever saved. A refusal shows the API's message, with the file's line for a CSV chunk's line.
 */
import './nav.js'
import { dbm, dbmWithBody } from './admin-dbm.js'
import { ApiError } from './api.js'
import { apiHref, byId, make } from './dom.js'
import { ErrorBox } from './messages.js'
import type { UploadChunk } from './upload-chunk.js'
import { FORMATS, formatOf } from './upload-formats.js'

interface TableAnswer {
  readonly path: string
  readonly rows: number
  readonly cols?: readonly { readonly name: string; readonly type: string }[]
}

const TYPES = ['int', 'float', 'text', 'date'] as const

const form = byId<HTMLFormElement>('upload-form')
const fileInput = byId<HTMLInputElement>('file')
const nameInput = byId<HTMLInputElement>('table-name')
const uploadButton = byId<HTMLButtonElement>('upload')
const cancelButton = byId<HTMLButtonElement>('cancel')
const box = byId('upload-box')
const bar = byId<HTMLProgressElement>('upload-bar')
const detail = byId('upload-detail')
const typeBox = byId('types')
const typeFields = byId('type-fields')
const uploaded = byId('uploaded')
const errors = new ErrorBox()

fileInput.accept = FORMATS.map((f) => `.${f.ext}`).join(',')
byId('file-hint').textContent = `Takes ${FORMATS.map((f) => `.${f.ext}: ${f.label}`).join('; ')}.`

/** A table name from a file name: lower case, letters, digits and underscores, starting with a letter. */
function tableNameOf(fileName: string): string {
  const base = fileName
    .replace(/\.[^.]*$/, '')
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '')
  return /^[a-z]/.test(base) ? base : `t_${base}`
}

/** One select per column: automatic, or a declared type (upload_begin's cols). */
function showTypes(names: readonly string[]): void {
  typeFields.replaceChildren(
    ...names.map((name, i) => {
      const field = make('div', undefined, 'field')
      const label = make('label', name)
      const select = make('select')
      select.id = `type-${i}`
      select.dataset.column = name
      label.htmlFor = select.id
      select.append(new Option('automatic', ''), ...TYPES.map((t) => new Option(t, t)))
      field.append(label, select)
      return field
    }),
  )
  typeBox.hidden = names.length === 0
}

fileInput.addEventListener('change', () => {
  errors.clear()
  showTypes([])
  const file = fileInput.files?.[0]
  if (file === undefined) return
  if (nameInput.value === '') nameInput.value = tableNameOf(file.name)
  const format = formatOf(file.name)
  if (format === null) {
    errors.show(new Error(unknownFormat(file.name)))
    return
  }
  format.columns(file).then(showTypes, (err: unknown) => errors.show(err))
})

function unknownFormat(fileName: string): string {
  return `The upload takes ${FORMATS.map((f) => `.${f.ext}`).join(', ')} files; "${fileName}" is none of them.`
}

/** The declared columns, or undefined when every type is automatic (the first chunk names them). */
function declaredCols(): { name: string; type?: string }[] | undefined {
  const selects = Array.from(typeFields.querySelectorAll('select'))
  if (selects.every((s) => s.value === '')) return undefined
  return selects.map((s) => ({ name: s.dataset.column ?? '', ...(s.value === '' ? {} : { type: s.value }) }))
}

/** The API's message for a chunk, with where its rows start in the file (and the file's line for a chunk's line). */
function chunkMessage(err: unknown, seq: number, chunk: UploadChunk, fileName: string): Error {
  const message = err instanceof Error ? err.message : String(err)
  if (chunk.firstLine !== undefined) {
    // The service counts lines within the chunk: line 1 is the header line the page put first.
    const inChunk = /\bline (\d+) of the CSV\b/.exec(message)
    const fileLine = inChunk === null ? '' : ` Line ${inChunk[1]} of that chunk is line ${chunk.firstLine + Number(inChunk[1]) - 2} of ${fileName}.`
    return new Error(`Chunk ${seq} (from line ${chunk.firstLine} of ${fileName}): ${message}${fileLine}`)
  }
  if (chunk.firstRow !== undefined) return new Error(`Chunk ${seq} (from row ${chunk.firstRow} of ${fileName}): ${message}`)
  return new Error(message)
}

let running: AbortController | null = null

cancelButton.addEventListener('click', () => {
  detail.textContent = 'cancelling…'
  running?.abort()
})

function setRunning(on: boolean): void {
  uploadButton.disabled = on
  cancelButton.disabled = !on
  for (const el of form.querySelectorAll<HTMLInputElement | HTMLSelectElement>('input, select')) el.disabled = on
}

/** Where the folder browser shows the table: its folder, with the table picked. */
function tableHref(path: string): string {
  const folder = path.slice(0, path.lastIndexOf('.'))
  return `${apiHref(`ls/${encodeURIComponent(folder)}`)}#${encodeURIComponent(path)}`
}

async function upload(file: File, controller: AbortController): Promise<TableAnswer> {
  const format = formatOf(file.name)
  if (format === null) throw new Error(unknownFormat(file.name))
  const folder = byId<HTMLInputElement>('folder').value.trim()
  const path = folder === '' ? nameInput.value.trim() : `${folder}.${nameInput.value.trim()}`
  const title = byId<HTMLInputElement>('table-title').value.trim()
  const cols = declaredCols()
  const signal = controller.signal
  const chunkBytes = Math.max(1, Math.floor(Number(byId<HTMLInputElement>('chunk-kb').value) || 4096)) * 1024
  const begun = await dbm<{ upload: string; path: string }>(
    'upload_begin',
    { path, mode: byId<HTMLSelectElement>('mode').value, ...(cols ? { cols } : {}), ...(title === '' ? {} : { title }) },
    signal,
  )
  try {
    let seq = 0
    let rows = 0
    for await (const chunk of format.chunks(file, chunkBytes)) {
      signal.throwIfAborted()
      seq++
      const params = { upload: begun.upload, seq }
      try {
        const answer =
          chunk.body !== undefined
            ? await dbmWithBody<{ rows: number }>('upload_chunk', params, chunk.body, signal)
            : await dbm<{ rows: number }>('upload_chunk', { ...params, data: chunk.data }, signal)
        rows = answer.rows
      } catch (err) {
        throw signal.aborted ? err : chunkMessage(err, seq, chunk, file.name)
      }
      bar.value = chunk.done
      detail.textContent = `chunk ${seq} · ${rows.toLocaleString('en-US')} rows · ${Math.round(chunk.done * 100)}%`
    }
    if (seq === 0) throw new Error(`${file.name} has no rows (only a header, or nothing).`)
    signal.throwIfAborted()
    detail.textContent = `saving ${rows.toLocaleString('en-US')} rows…`
    return await dbm<TableAnswer>('upload_commit', { upload: begun.upload }, signal)
  } catch (err) {
    // Without the signal: after Cancel it has fired, and the abort must still reach the service.
    await dbm('upload_abort', { upload: begun.upload }).catch(() => undefined)
    throw err
  }
}

form.addEventListener('submit', (ev) => {
  ev.preventDefault()
  const file = fileInput.files?.[0]
  if (running !== null || file === undefined) return
  errors.clear()
  uploaded.hidden = true
  box.hidden = false
  bar.value = 0
  detail.textContent = 'starting…'
  const controller = new AbortController()
  running = controller
  setRunning(true)
  upload(file, controller)
    .then((table) => {
      bar.value = 1
      detail.textContent = 'done'
      const link = byId<HTMLAnchorElement>('table-link')
      link.href = tableHref(table.path)
      link.textContent = table.path
      const cols = (table.cols ?? []).map((c) => `${c.name} ${c.type}`).join(', ')
      byId('uploaded-rows').textContent = `${table.rows.toLocaleString('en-US')} rows${cols === '' ? '' : ` (${cols})`}`
      uploaded.hidden = false
    })
    .catch((err: unknown) => {
      if (controller.signal.aborted) {
        detail.textContent = 'cancelled: nothing was saved'
        return
      }
      detail.textContent = 'failed: nothing was saved'
      errors.show(err instanceof ApiError || err instanceof Error ? err : new Error(String(err)))
    })
    .finally(() => {
      running = null
      setRunning(false)
    })
})
