/**
 * A column's display width lives twice in 1010data's metadata: as `width` and inside `format`
 * (`type:num;width:15;dec:2`, SPEC 2.3). A client may read either, so the two must agree: the
 * format always carries `width:<n>`, and it is the same number as `width`.
 */

/** The format part that names the width: `width:<digits>`, spaces allowed around its pieces. */
const WIDTH_PART = /^\s*width\s*:\s*(\d+)\s*$/i

/** The `width:<n>` a format string gives, or null when it gives none (or not a whole number). */
export function formatWidth(format: string): number | null {
  for (const part of format.split(';')) {
    const m = WIDTH_PART.exec(part)
    if (m) return Number(m[1])
  }
  return null
}

/**
 * `format` with its width set to `width`: an existing `width:` part is replaced, otherwise one
 * is put right after the `type:` part (or first), where 1010data's own formats have it. Empty
 * parts are dropped; everything else is kept as it was written.
 */
export function withFormatWidth(format: string, width: number): string {
  const parts = format.split(';').filter((p) => p.trim() !== '')
  const kept = parts.filter((p) => !/^\s*width\s*:/i.test(p))
  const typeAt = kept.findIndex((p) => /^\s*type\s*:/i.test(p))
  kept.splice(typeAt + 1, 0, `width:${width}`)
  return kept.join(';')
}

/**
 * `format` without its `width:` part: what to store for a column whose width was only a default,
 * so that saving it does not turn that default into a stated width (which cuts shown values).
 */
export function withoutFormatWidth(format: string): string {
  return format
    .split(';')
    .filter((p) => p.trim() !== '' && !/^\s*width\s*:/i.test(p))
    .join(';')
}
