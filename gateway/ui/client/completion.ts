/**
 * What the editor offers to complete beside the language's own words: table paths (a dotted path
 * lists the folder it is in), the columns of the tables the query names, and function names.
 * In the macro language names belong in attribute values (`table="…"`, `value="…"`), so there
 * the sources answer only inside one; element and attribute names come from macro-schema.ts.
 */
import type { Completion, CompletionContext, CompletionResult, CompletionSource } from '@codemirror/autocomplete'
import { syntaxTree } from '@codemirror/language'
import type { Catalog } from './catalog.js'
import type { EditorLanguage } from './editor.js'

/** A dotted path (or the start of one) before the cursor: `pub.demo.re`, `pub.`, `item`. */
const PATH_BEFORE = /[A-Za-z_][\w]*(?:\.[\w]*)*$/

/** Dotted paths written anywhere in a query: the candidates for "tables the query mentions". */
const PATHS_IN_TEXT = /[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+/g

/** Whether the cursor is inside an XML attribute value, where the macro language's names go. */
function inAttributeValue(context: CompletionContext): boolean {
  const node = syntaxTree(context.state).resolveInner(context.pos, -1)
  for (let n: typeof node | null = node; n !== null; n = n.parent) if (n.name === 'AttributeValue') return true
  return false
}

/** Whether a source may answer here: anywhere in SQL outside strings, only in attribute values in XML. */
function applies(language: EditorLanguage, context: CompletionContext): boolean {
  if (language === 'xml') return inAttributeValue(context)
  const node = syntaxTree(context.state).resolveInner(context.pos, -1)
  return node.name !== 'String' && node.name !== 'LineComment' && node.name !== 'BlockComment'
}

/** Table and folder names: after `a.b.`, the entries of folder a.b; otherwise the top-level folders. */
export function tablePaths(catalog: Catalog, language: EditorLanguage): CompletionSource {
  return async (context): Promise<CompletionResult | null> => {
    if (!applies(language, context)) return null
    const word = context.matchBefore(PATH_BEFORE)
    if (word === null && !context.explicit) return null
    const typed = word?.text ?? ''
    const dot = typed.lastIndexOf('.')
    const parent = dot < 0 ? '' : typed.slice(0, dot)
    if (parent !== '' && (await catalog.kind(parent)) !== 'dir') return null
    const entries = await catalog.folder(parent)
    const options: Completion[] = entries.map((e) => ({
      label: e.name,
      type: e.kind === 'dir' ? 'namespace' : 'class',
      detail: e.kind === 'dir' ? 'folder' : 'table',
      info: e.title === '' ? undefined : e.title,
      // Picking a folder goes on into it.
      apply: e.kind === 'dir' ? `${e.name}.` : e.name,
      boost: e.kind === 'table' ? 1 : 0,
    }))
    return { from: (word?.from ?? context.pos) + dot + 1, options, validFor: /^\w*$/ }
  }
}

/** The tables a query names: every dotted path in its text that is a readable table. */
async function mentionedTables(catalog: Catalog, text: string): Promise<string[]> {
  const candidates = [...new Set(text.match(PATHS_IN_TEXT) ?? [])]
  const kinds = await Promise.all(candidates.map((p) => catalog.kind(p).catch(() => null)))
  return candidates.filter((_, i) => kinds[i] === 'table')
}

/** The columns of the tables the query names, with their types. */
export function columnNames(catalog: Catalog, language: EditorLanguage): CompletionSource {
  return async (context): Promise<CompletionResult | null> => {
    if (!applies(language, context)) return null
    const word = context.matchBefore(/\w+$/)
    if (word === null && !context.explicit) return null
    // After a path's dot the path source answers; after an alias's dot (t.sto) this one does.
    const before = context.state.sliceDoc(0, word?.from ?? context.pos)
    const path = PATH_BEFORE.exec(before.endsWith('.') ? before.slice(0, -1) : '')?.[0]
    if (path !== undefined && (await catalog.kind(path)) === 'dir') return null
    const tables = await mentionedTables(catalog, context.state.doc.toString())
    const seen = new Set<string>()
    const options: Completion[] = []
    for (const table of tables) {
      for (const col of await catalog.columns(table).catch(() => [])) {
        if (seen.has(col.name)) continue
        seen.add(col.name)
        options.push({ label: col.name, type: 'property', detail: col.type, info: col.label === col.name ? table : `${col.label} (${table})`, boost: 2 })
      }
    }
    return options.length === 0 ? null : { from: word?.from ?? context.pos, options, validFor: /^\w*$/ }
  }
}

/** Function names the service supports; picking one writes `name(`. */
export function functionNames(names: readonly string[], language: EditorLanguage): CompletionSource {
  const options: Completion[] = names.map((name) => ({ label: name, type: 'function', apply: `${name}(` }))
  return (context): CompletionResult | null => {
    if (!applies(language, context)) return null
    const word = context.matchBefore(/\w+$/)
    if (word === null && !context.explicit) return null
    const from = word?.from ?? context.pos
    // A word after a dot is part of a path or a column of an alias, never a call.
    if (context.state.sliceDoc(from - 1, from) === '.') return null
    return { from, options, validFor: /^\w*$/ }
  }
}
