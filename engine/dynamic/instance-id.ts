/**
 * `instid_` (SPEC §2.1, reference §4.4): `new` marks a query that ends with a `<dynamic>` with
 * the instance's identity. The text is edited in place at the element's start tag rather than
 * re-serialised, so the stored query stays exactly what the user wrote (comments, spacing,
 * entity spellings) apart from that one attribute.
 */
import { AppError } from '../../shared/errors.js'
import type { Loc } from '../ast.js'
import { parseXml } from '../parse/index.js'
import { escapeAttr } from './serialize.js'
import { lastTopLevel } from './top-level.js'

const ATTR = 'instid_'

/**
 * Adds `instid_="<tag>"` to the `<dynamic>` the query ends with (inside `<macro>` if wrapped),
 * replacing an `instid_` already there; returns the text unchanged when the query does not end
 * with a `<dynamic>`.
 * @throws AppError PARSE_ERROR for malformed XML
 */
export function withInstanceId(xml: string, tag: number | string): string {
  const last = lastTopLevel(parseXml(xml))
  if (last?.name !== 'dynamic') return xml
  const start = offsetOf(xml, last.loc)
  const tagText = scanStartTag(xml, start)
  const value = `"${escapeAttr(String(tag))}"`
  const existing = tagText.attrs.find((a) => a.name === ATTR)
  if (existing) return xml.slice(0, existing.valueStart) + value + xml.slice(existing.valueEnd)
  const at = tagText.attrs.at(-1)?.valueEnd ?? tagText.nameEnd
  return `${xml.slice(0, at)} ${ATTR}=${value}${xml.slice(at)}`
}

/** The text offset of a 1-based line and column (columns count UTF-16 units, lines end at `\n`, as parseXml counts). */
function offsetOf(text: string, loc: Loc): number {
  let offset = 0
  for (let line = 1; line < loc.line; line++) {
    const nl = text.indexOf('\n', offset)
    if (nl < 0) break
    offset = nl + 1
  }
  return offset + loc.col - 1
}

interface AttrSpan {
  /** Lower-cased, as parseXml reads it. */
  readonly name: string
  /** The quoted value, quotes included: [valueStart, valueEnd). */
  readonly valueStart: number
  readonly valueEnd: number
}

/**
 * Reads the start tag at `start` (which parseXml has already accepted, so it is well-formed
 * after the lenient pre-scan: every value is quoted and a quote ends only its own value).
 */
function scanStartTag(text: string, start: number): { nameEnd: number; attrs: AttrSpan[] } {
  const head = /^<dynamic(?=[\s/>])/i.exec(text.slice(start, start + 9))
  if (!head) throw new AppError('INTERNAL', `withInstanceId: expected <dynamic> at offset ${start}`)
  const attrs: AttrSpan[] = []
  const ATTR_RE = /\s*([^\s=/>]+)\s*=\s*("[^"]*"|'[^']*')/y
  ATTR_RE.lastIndex = start + head[0].length
  for (let m = ATTR_RE.exec(text); m; m = ATTR_RE.exec(text)) {
    const valueEnd = ATTR_RE.lastIndex
    attrs.push({ name: m[1].toLowerCase(), valueStart: valueEnd - m[2].length, valueEnd })
  }
  return { nameEnd: start + head[0].length, attrs }
}
