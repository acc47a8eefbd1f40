/**
 * Calls to the service from the pages: JSON in, JSON out, and every failure turned into an
 * ApiError carrying the API's own message, which the pages show as it is.
 */
import type { ErrorBody } from '../../../shared/api-answers.js'

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string | null,
  ) {
    super(message)
    this.name = 'ApiError'
  }
}

/** The API's `{"error", "code"}` body, or the bare status when the answer is not that. */
export async function failure(res: Response): Promise<ApiError> {
  try {
    const body: unknown = await res.json()
    // Checked, not trusted: a proxy's JSON need not be the API's ErrorBody.
    if (typeof body === 'object' && body !== null && typeof (body as Partial<ErrorBody>).error === 'string') {
      const { error, code } = body as Partial<ErrorBody> & { error: string }
      return new ApiError(error, res.status, typeof code === 'string' ? code : null)
    }
  } catch {
    // Not JSON (a proxy's page, say): the status is all there is to tell.
  }
  return new ApiError(`The service answered HTTP ${res.status} ${res.statusText}.`.trim(), res.status, null)
}

/** GET without a body, POST with a JSON body; an answer other than 2xx is thrown as ApiError. */
async function call(url: string, body?: unknown): Promise<Response> {
  const init: RequestInit =
    body === undefined
      ? { headers: { Accept: 'application/json' } }
      : { method: 'POST', headers: { Accept: 'application/json', 'Content-Type': 'application/json' }, body: JSON.stringify(body) }
  let res: Response
  try {
    res = await fetch(url, init)
  } catch (err) {
    throw new ApiError(`The service could not be reached (${err instanceof Error ? err.message : String(err)}).`, 0, null)
  }
  if (!res.ok) throw await failure(res)
  return res
}

export async function getJson<T>(url: string): Promise<T> {
  return (await (await call(url)).json()) as T
}

/** JSON with the answer's headers, for the few callers that read one (X-Result-Id). */
export async function getJsonAnswer<T>(url: string): Promise<{ body: T; headers: Headers }> {
  const res = await call(url)
  return { body: (await res.json()) as T, headers: res.headers }
}

export async function postJson<T>(url: string, body: Readonly<Record<string, unknown>>): Promise<T> {
  return (await (await call(url, body)).json()) as T
}

/**
 * Posts and waits only until the answer starts: its status tells whether the query ran, and its
 * body (the whole result, possibly millions of rows) is dropped unread. The pages then read the
 * kept result a page at a time through !rows, !cols and !data.
 */
export async function postAndDrop(url: string, body: Readonly<Record<string, unknown>>): Promise<Headers> {
  const res = await call(url, body)
  await res.body?.cancel().catch(() => undefined)
  return res.headers
}

/**
 * Posts and reads only the first `chars` characters of the answer (a `truncate_=1` answer starts
 * with `{"truncated":…,"total_rows":…,"rows":…`), then drops the rest as postAndDrop does.
 */
export async function postAndReadStart(url: string, body: Readonly<Record<string, unknown>>, chars = 200): Promise<{ headers: Headers; start: string }> {
  const res = await call(url, body)
  let start = ''
  const reader = res.body?.getReader()
  if (reader !== undefined) {
    const decoder = new TextDecoder()
    while (start.length < chars) {
      const { done, value } = await reader.read()
      if (done) break
      start += decoder.decode(value, { stream: true })
    }
    await reader.cancel().catch(() => undefined)
  }
  return { headers: res.headers, start }
}

/** The message to show for anything a call threw. */
export function messageOf(err: unknown): string {
  if (err instanceof Error) return err.message
  return String(err)
}
