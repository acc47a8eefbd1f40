/**
 * Where a statement typed into the shell ends, so that it can span lines.
 *
 * SQL ends at a `;` outside quotes ('…', "…", `…`, […]) and comments (-- and /* *\/); one line may
 * hold several statements. A macro query (text that starts with `<`) ends once its XML is
 * complete (every element closed, outside quoted attributes, comments and CDATA) and the line
 * ends with `;` or an empty line follows: a query is a list of elements, so `<base …/>` alone is
 * complete XML yet usually only its first line.
 */

export type Language = 'sql' | 'run'

export const languageOf = (text: string): Language => (text.trimStart().startsWith('<') ? 'run' : 'sql')

/** The SQL statements that end in `text` (without their `;`), and what is left after the last one. */
export function splitSql(text: string): { statements: string[]; rest: string } {
  const statements: string[] = []
  let start = 0
  let i = 0
  const n = text.length
  while (i < n) {
    const ch = text[i]
    if (ch === "'" || ch === '"' || ch === '`' || ch === '[') {
      const close = ch === '[' ? ']' : ch
      // A doubled quote inside a literal is that quote; the loop simply sees a new literal start.
      const end = text.indexOf(close, i + 1)
      if (end === -1) return { statements, rest: text.slice(start) }
      i = end + 1
    } else if (ch === '-' && text[i + 1] === '-') {
      const end = text.indexOf('\n', i)
      if (end === -1) break
      i = end + 1
    } else if (ch === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2)
      if (end === -1) return { statements, rest: text.slice(start) }
      i = end + 2
    } else if (ch === ';') {
      const s = text.slice(start, i).trim()
      if (s !== '') statements.push(s)
      start = ++i
    } else i++
  }
  return { statements, rest: text.slice(start) }
}

/**
 * Whether the XML of a macro query is complete: every element opened is closed, and nothing is
 * left inside a tag, a comment, CDATA or a processing instruction. Well-formedness beyond that
 * is the service's to judge (it answers with the line and column).
 */
export function xmlComplete(text: string): boolean {
  let depth = 0
  let i = 0
  const n = text.length
  let any = false
  while (i < n) {
    const lt = text.indexOf('<', i)
    if (lt === -1) break
    if (text.startsWith('<!--', lt)) {
      const end = text.indexOf('-->', lt + 4)
      if (end === -1) return false
      i = end + 3
      continue
    }
    if (text.startsWith('<![CDATA[', lt)) {
      const end = text.indexOf(']]>', lt + 9)
      if (end === -1) return false
      i = end + 3
      continue
    }
    if (text.startsWith('<?', lt)) {
      const end = text.indexOf('?>', lt + 2)
      if (end === -1) return false
      i = end + 2
      continue
    }
    // A tag: find its '>' outside quoted attribute values.
    let j = lt + 1
    let quote: string | null = null
    for (; j < n; j++) {
      const ch = text[j]
      if (quote) {
        if (ch === quote) quote = null
      } else if (ch === '"' || ch === "'") quote = ch
      else if (ch === '>') break
    }
    if (j >= n) return false
    const tag = text.slice(lt, j + 1)
    any = true
    if (tag.startsWith('</')) depth--
    else if (!tag.endsWith('/>')) depth++
    i = j + 1
  }
  return any && depth <= 0
}

/**
 * Feeds lines in and hands out complete statements: the state of one shell's input. `pending`
 * says whether a statement has begun (the prompt then shows it continues).
 */
export class StatementReader {
  private buffer = ''

  get pending(): boolean {
    return this.buffer.trim() !== ''
  }

  /** The text of the statement begun so far (for completion). */
  get text(): string {
    return this.buffer
  }

  clear(): void {
    this.buffer = ''
  }

  /** The statements `line` completes. */
  push(line: string): string[] {
    const wasPending = this.pending
    if (!wasPending && line.trim() === '') return []
    if (languageOf(wasPending ? this.buffer : line) === 'sql') {
      const { statements, rest } = splitSql(this.buffer + line + '\n')
      this.buffer = rest.trim() === '' ? '' : rest
      return statements
    }
    if (line.trim() === '' || line.trimEnd().endsWith(';')) {
      const candidate = (this.buffer + line.trimEnd().replace(/;$/, '')).trim()
      if (xmlComplete(candidate)) {
        this.buffer = ''
        return [candidate]
      }
    }
    this.buffer += line + '\n'
    return []
  }

  /** At the end of input: what is left, as a last statement (a script need not end with `;`). */
  end(): string[] {
    const rest = this.buffer.trim()
    this.buffer = ''
    return rest === '' ? [] : [rest.replace(/;\s*$/, '')]
  }
}
