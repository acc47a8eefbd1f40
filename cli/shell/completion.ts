/**
 * Tab completion in the shell. What is offered depends on the word before the cursor:
 *
 * - a line that starts with `.`: the shell's commands (then a path for .ls and .cols);
 * - a dotted word (`pub.demo.re`): the folders and tables of that folder, from the service's
 *   listing (`api/ls`), folders with a trailing dot so Tab goes on into them;
 * - in SQL, any other word: keywords, functions, the root folders, and the columns of every
 *   table the statement names so far (`!cols`);
 * - in a macro query: element names after `<`, folders and tables inside table="…", and
 *   elsewhere columns, functions and attribute names.
 *
 * Listings are asked for once per shell (they are cached, failures as empty), and a slow service
 * gives no completion rather than a stuck prompt.
 */
import { languageOf } from './statements.js'
import { DOT_COMMANDS, MACRO_FUNCTIONS, SQL_FUNCTIONS, SQL_KEYWORDS, XML_ATTRIBUTES, XML_ELEMENTS } from './words.js'

export interface Entry {
  readonly name: string
  readonly path: string
  readonly table: boolean
}

/** What completion asks the service: a folder's entries ('' the root) and a table's column names. */
export interface Catalog {
  list(folder: string): Promise<readonly Entry[]>
  columns(table: string): Promise<readonly string[]>
}

/** Caches a catalog's answers; a failed or slow answer counts as empty. */
export function cachedCatalog(source: Catalog): Catalog {
  const lists = new Map<string, Promise<readonly Entry[]>>()
  const cols = new Map<string, Promise<readonly string[]>>()
  const safe = <T>(p: Promise<T>, empty: T): Promise<T> => p.catch(() => empty)
  return {
    list(folder) {
      let p = lists.get(folder)
      if (!p) lists.set(folder, (p = safe(source.list(folder), [])))
      return p
    },
    columns(table) {
      let p = cols.get(table)
      if (!p) cols.set(table, (p = safe(source.columns(table), [])))
      return p
    },
  }
}

/** Dotted names in a statement that may be tables (at most a few, so one Tab asks little). */
const DOTTED = /[A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)+/g
const MAX_TABLES = 6

function startsWithFold(word: string, prefix: string): boolean {
  return word.toLowerCase().startsWith(prefix.toLowerCase())
}

/** Keywords in the case the user types them: SELECT for SEL, select for sel. */
function inCaseOf(word: string, typed: string): string {
  return typed !== '' && typed === typed.toUpperCase() && /[A-Z]/.test(typed) ? word.toUpperCase() : word
}

async function columnsOfNamed(catalog: Catalog, text: string): Promise<string[]> {
  const names = [...new Set(text.match(DOTTED) ?? [])].slice(0, MAX_TABLES)
  const lists = await Promise.all(names.map((n) => catalog.columns(n)))
  return lists.flat()
}

async function pathCandidates(catalog: Catalog, token: string): Promise<string[]> {
  const dot = token.lastIndexOf('.')
  const folder = dot === -1 ? '' : token.slice(0, dot)
  const prefix = token.slice(dot + 1)
  const entries = await catalog.list(folder)
  return entries.filter((e) => startsWithFold(e.name, prefix)).map((e) => (e.table ? e.path : `${e.path}.`))
}

/** The statement around the cursor: whether earlier lines began it, and its whole text so far. */
export interface StatementContext {
  readonly pending: boolean
  /** The earlier lines and the whole current line, the part after the cursor too (it may name the table). */
  readonly text: string
}

/**
 * The completer readline calls with the line up to the cursor; `statement` tells what else was
 * typed. Answers the candidates and the word they replace.
 */
export function makeCompleter(catalog: Catalog, statement: () => StatementContext): (line: string) => Promise<[string[], string]> {
  return async (line) => {
    const { pending, text: whole } = statement()
    const text = whole === '' ? line : whole
    const token = /[A-Za-z0-9_.]*$/.exec(line)?.[0] ?? ''
    const finish = (words: readonly string[]): [string[], string] => [[...new Set(words)].sort(), token]
    if (!pending && line.trimStart().startsWith('.')) {
      const m = /^\s*(\.\w*)(\s+)?/.exec(line)
      if (m && !m[2]) {
        const cmd = m[1]
        return [DOT_COMMANDS.filter((c) => c.startsWith(cmd)), cmd]
      }
      if (m && (m[1] === '.ls' || m[1] === '.cols')) return finish(await pathCandidates(catalog, token))
      return [[], token]
    }
    if (token.includes('.')) return finish(await pathCandidates(catalog, token))
    if (languageOf(text) === 'run') {
      const head = line.slice(0, line.length - token.length)
      if (/<\/?$/.test(head)) return finish(XML_ELEMENTS.filter((w) => startsWithFold(w, token)))
      if (/\btable2?\s*=\s*["'][^"']*$/.test(head)) return finish(await pathCandidates(catalog, token))
      const cols = await columnsOfNamed(catalog, text)
      return finish([...cols, ...MACRO_FUNCTIONS, ...XML_ATTRIBUTES].filter((w) => startsWithFold(w, token)))
    }
    const [cols, roots] = await Promise.all([columnsOfNamed(catalog, text), catalog.list('')])
    const words = [...SQL_KEYWORDS, ...SQL_FUNCTIONS].filter((w) => startsWithFold(w, token)).map((w) => inCaseOf(w, token))
    const folders = roots.filter((e) => startsWithFold(e.name, token)).map((e) => (e.table ? e.path : `${e.path}.`))
    return finish([...cols.filter((c) => startsWithFold(c, token)), ...words, ...folders])
  }
}
