/** HTML escaping: the one place that decides how text becomes safe markup. */

const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
}

const SPECIAL = /[&<>"']/g

/**
 * Escape & < > " and ' so the result is safe both as element text and inside a quoted attribute
 * value (either quote style).
 */
export function escapeHtml(text: string): string {
  return text.replace(SPECIAL, (c) => ENTITIES[c])
}
