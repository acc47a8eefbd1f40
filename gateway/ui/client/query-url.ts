/**
 * The query in the page's address: running a query writes it there (`?sql=…` or `?xml=…`), so
 * the address can be bookmarked or sent; opening it fills the editor (the server writes the text
 * into the page), and with `run=1` the page runs it too. Only the query parameter is ever
 * written: never `savetable`, so a link can run a query but cannot save or change anything.
 */

/**
 * Longest address written, in characters. Servers and proxies refuse long request lines (Node's
 * headers are limited to 16 KiB in all); a longer query stays out of the address.
 */
export const MAX_URL_LENGTH = 8000

/** The link that opens this page with `query` in the editor; null when it would be too long. */
export function queryUrl(pathname: string, param: string, query: string, run = false): string | null {
  const url = `${pathname}?${new URLSearchParams(run ? { [param]: query, run: '1' } : { [param]: query }).toString()}`
  return url.length <= MAX_URL_LENGTH ? url : null
}

/** Writes the query just run into the address (replacing it: Back leaves the page, as before). */
export function showQueryInUrl(param: string, query: string): void {
  const url = queryUrl(window.location.pathname, param, query) ?? window.location.pathname
  window.history.replaceState(null, '', url)
}

/** The query the page's address carries, if any (whether to run it is the server's call: data-autorun). */
export function linkedQuery(param: string): { readonly query: string | null } {
  return { query: new URLSearchParams(window.location.search).get(param) }
}
