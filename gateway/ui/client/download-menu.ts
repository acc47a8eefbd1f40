/**
 * "Download as": the whole current result (not the page shown) as CSV, Parquet, Arrow or JSON.
 * Each entry is a plain link to the kept result's `!data` in that format with the full row range,
 * so the browser downloads what the API answers, streamed, without the page holding the rows.
 * (JSON is column-major `:json`, the API's own shape; `download` names the file.)
 */

/** Menu entry ids and the format suffix each asks for. */
export const DOWNLOADS: Readonly<Record<string, { readonly suffix: string; readonly ext: string }>> = {
  'download-csv': { suffix: 'csv', ext: 'csv' },
  'download-parquet': { suffix: 'parquet', ext: 'parquet' },
  'download-arrow': { suffix: 'arrow', ext: 'arrow' },
  'download-json': { suffix: 'json', ext: 'json' },
}

/** The file name: the table's or instance's last path segment, else "result". */
export function downloadName(base: string, ext: string): string {
  const last = decodeURIComponent(base.split('/').pop() ?? '')
  const stem = /^[A-Za-z0-9_.-]+$/.test(last) && !['run', 'sql'].includes(last) ? (/^\d+$/.test(last) ? `instance-${last}` : last) : 'result'
  return `${stem}.${ext}`
}

/**
 * Points the menu's links at the whole result read at `base` (`from`/`to`: its row-range
 * parameter names), `total` rows. A page without the menu is left alone.
 */
export function updateDownloads(base: string, from: string, to: string, total: number): void {
  const range = `${encodeURIComponent(from)}=0&${encodeURIComponent(to)}=${total}`
  for (const [id, { suffix, ext }] of Object.entries(DOWNLOADS)) {
    const link = document.getElementById(id) as HTMLAnchorElement | null
    if (link === null) return
    link.href = `${base}/!data:${suffix}?${range}`
    link.download = downloadName(base, ext)
  }
}
