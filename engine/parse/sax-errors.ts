/**
 * Turns sax's terse strict-mode messages ("Invalid attribute name") into ones that say what was
 * expected where. sax keeps the name of the tag and attribute it was reading in fields its types
 * do not declare; reading them here is the only way to name them in the message.
 */
import type { SAXParser } from 'sax'

/** The sax fields read for messages; present in sax 1.x, absent from @types/sax. */
interface SaxInternals {
  readonly tagName?: string
  readonly attribName?: string
  readonly c?: string
}

/** A user-facing description of a sax error, without the position (the caller prefixes it). */
export function describeSaxError(parser: SAXParser, err: Error): string {
  const raw = err.message.split('\n')[0]
  const p = parser as unknown as SaxInternals
  const tag = `<${(p.tagName ?? '').toLowerCase()}`
  const attr = p.attribName ?? ''
  const c = p.c ?? ''
  switch (raw) {
    case 'Invalid attribute name':
    case 'No whitespace between attributes':
      if (c === '/' || c === '>') return `attribute '${attr}' of ${tag} …> has no value: expected ="…"`
      if (raw.startsWith('No whitespace')) return `expected a space between the attributes of ${tag} …>`
      return `unexpected '${c}' in ${tag} …>: expected an attribute name, '/>' or '>'`
    case 'Attribute without value':
      return `attribute '${attr}' of ${tag} …> has no value: expected ="…"`
    case 'Unquoted attribute value':
      return `the value of attribute '${attr}' of ${tag} …> must be in quotes`
    case 'Invalid character in tag name':
      return `unexpected '${c}' in the tag name ${tag}`
    case 'Forward-slash in opening tag not followed by >':
      return `expected '>' after '/' in ${tag} …`
    case 'Weird empty close tag.':
    case 'Invalid tagname in closing tag.':
    case 'Invalid tagname in closing tag':
    case 'Invalid characters in closing tag':
      return `malformed closing tag: expected </name>`
    case 'Invalid character entity':
    case 'Invalid character in entity name':
      return 'invalid character reference: expected &lt; &gt; &amp; &quot; &apos; or &#number;'
    case 'Malformed comment':
      return "'--' is not allowed inside a comment"
    case 'Unencoded <':
      return "a '<' that does not start a tag must be written &lt;"
    default:
      return raw.replace(/\.$/, '')
  }
}
