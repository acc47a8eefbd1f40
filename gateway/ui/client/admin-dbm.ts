/**
 * What the administration pages share: one dbm transaction as JSON, with the API's refusal (rc 1)
 * thrown as an ApiError carrying its message and code, and the caller as the server described
 * them. The pages only ever act through these calls, with the user's own session.
 */
import type { DbmReply } from '../../../shared/api-answers.js'
import { ApiError, failure } from './api.js'
import { byId, pageData, required } from './dom.js'
import type { ErrorBox } from './messages.js'

const data = pageData()

/** Who is logged in and what the server said they may do (admin-common.ts). */
export const caller = {
  uid: required(data, 'uid'),
  company: required(data, 'company'),
  admin: data.admin === '1',
  manageUsers: data.manageUsers === '1',
  manageGroups: data.manageGroups === '1',
  caps: new Set((data.caps ?? '').split(' ').filter((c) => c !== '')),
}

const endpoint = required(data, 'dbm')

/** Posts to api/dbm:json; HTTP failures and refusals (rc 1, answered with HTTP 200) both throw ApiError. */
async function post<T>(url: string, type: string, body: BodyInit, signal?: AbortSignal): Promise<T> {
  let res: Response
  try {
    res = await fetch(url, { method: 'POST', headers: { Accept: 'application/json', 'Content-Type': type }, body, signal })
  } catch (err) {
    if (signal?.aborted) throw err
    throw new ApiError(`The service could not be reached (${err instanceof Error ? err.message : String(err)}).`, 0, null)
  }
  if (!res.ok) throw await failure(res)
  const reply = (await res.json()) as DbmReply
  if (reply.rc !== 0) throw new ApiError(reply.msg, 200, reply.code)
  return reply.value as T
}

/** Runs one transaction with JSON parameters. */
export function dbm<T>(name: string, params: Readonly<Record<string, unknown>>, signal?: AbortSignal): Promise<T> {
  return post<T>(endpoint, 'application/json', JSON.stringify({ cmd: [name, params] }), signal)
}

/**
 * Runs one transaction whose rows are the request's body (upload_chunk's CSV, `text/csv`), with
 * its parameters in the query string.
 */
export function dbmWithBody<T>(name: string, params: Readonly<Record<string, unknown>>, body: RequestBody, signal?: AbortSignal): Promise<T> {
  const url = `${endpoint}?cmd=${encodeURIComponent(JSON.stringify([name, params]))}`
  return post<T>(url, body.type, body.bytes, signal)
}

/** A request body and its Content-Type. */
export interface RequestBody {
  readonly type: string
  readonly bytes: string | Blob
}

/** A column-major dbm list ({col: [values]}) as one object per row. */
export function rowsOf<K extends string>(table: Readonly<Record<K, readonly unknown[]>>, keys: readonly K[]): Record<K, unknown>[] {
  const n = table[keys[0]]?.length ?? 0
  return Array.from({ length: n }, (_, i) => Object.fromEntries(keys.map((k) => [k, table[k][i]])) as Record<K, unknown>)
}

/** User and group names as typed: separated by spaces or commas. */
export function namesOf(text: string): string[] {
  return text.split(/[\s,]+/).filter((n) => n !== '')
}

/** The #status line: what the last action did. Cleared with the error box at the next action. */
export function showStatus(text: string): void {
  byId('status').textContent = text
}

/**
 * Runs a page's action: the error box and the status line cleared first, the control that
 * started it disabled meanwhile (no double submit), and a failure shown with the API's message.
 */
export async function act(errors: ErrorBox, control: HTMLButtonElement | HTMLInputElement, work: () => Promise<void>): Promise<void> {
  errors.clear()
  showStatus('')
  control.disabled = true
  try {
    await work()
  } catch (err) {
    errors.show(err)
  } finally {
    control.disabled = false
  }
}
