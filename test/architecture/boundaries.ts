/**
 * Which product folder may reference which (issue 18, STYLE.md "Dependencies point one way"),
 * and the check over a set of sources. The check is a pure function of the files it is given, so
 * a test can plant a forbidden import and see it reported, and another can run it on the tree.
 *
 * Each folder lists what it may reach; a reference to any other code folder is a violation.
 * test/, bench/ and scripts/ have no rule: harnesses may reach into internals. References to
 * packages, `node:` modules and non-code files (package.json, built assets) are not checked.
 */
import { findReferences, resolveSpecifier, type ReferenceKind } from './import-graph.js'

/** Top-level folders that hold code; a reference leaving for another place is not checked. */
const CODE_FOLDERS = ['gateway', 'engine', 'shared', 'client', 'cli', 'test', 'bench', 'scripts']

export interface Boundary {
  /** The folder whose files are checked, with a trailing '/'. */
  readonly folder: string
  /** Folders (trailing '/') or single files its files may reference. */
  readonly mayReach: readonly string[]
  /** Files it may name only as a thread entry (`new URL(…, import.meta.url)`), never import. */
  readonly threadEntries?: readonly string[]
  /** Said with every violation. */
  readonly why: string
}

export const BOUNDARIES: readonly Boundary[] = [
  {
    folder: 'gateway/',
    mayReach: ['gateway/', 'shared/', 'client/', 'engine/index.ts'],
    threadEntries: ['engine/worker-door.cts', 'engine/storage/write-task-door.cts', 'engine/storage/sqlite-image-task-door.cts'],
    why: 'the gateway uses the engine only through its door, engine/index.ts (add what it needs there)',
  },
  { folder: 'engine/', mayReach: ['engine/', 'shared/'], why: 'the engine runs in workers and knows nothing of the gateway' },
  { folder: 'shared/', mayReach: ['shared/'], why: 'shared/ lies beneath the gateway and the engine: both import it, it imports neither' },
  { folder: 'client/', mayReach: ['client/', 'shared/'], why: 'client/ talks to the gateway over HTTP only' },
  { folder: 'cli/', mayReach: ['cli/', 'client/', 'shared/'], why: 'the CLI talks to the gateway over HTTP, through client/' },
]

export interface Violation {
  readonly file: string
  readonly line: number
  readonly specifier: string
  /** The resolved repository path ('' when the specifier is not a literal). */
  readonly target: string
  readonly why: string
}

const reaches = (target: string, allowed: readonly string[] = []): boolean => allowed.some((a) => (a.endsWith('/') ? target.startsWith(a) : target === a))

/** Whether one resolved reference of a file under `rule.folder` is allowed. */
function allowed(rule: Boundary, target: string, kind: ReferenceKind): boolean {
  if (!CODE_FOLDERS.includes(target.split('/')[0])) return true
  return reaches(target, rule.mayReach) || (kind === 'file' && reaches(target, rule.threadEntries))
}

/**
 * Every reference in `files` (repository path → source text) that crosses a boundary, in path
 * order. A dynamic import of a computed name is one too: it cannot be checked.
 */
export function checkBoundaries(files: ReadonlyMap<string, string>, boundaries: readonly Boundary[] = BOUNDARIES): Violation[] {
  const violations: Violation[] = []
  for (const file of [...files.keys()].sort()) {
    // The most specific folder's rule applies.
    const rule = boundaries.filter((b) => file.startsWith(b.folder)).sort((a, b) => b.folder.length - a.folder.length)[0]
    if (rule === undefined) continue
    for (const ref of findReferences(file, files.get(file)!)) {
      if (ref.kind === 'dynamic' && ref.specifier === '') {
        violations.push({ file, line: ref.line, specifier: '(computed)', target: '', why: 'an import() of a computed name cannot be checked' })
        continue
      }
      const target = resolveSpecifier(file, ref.specifier)
      if (target !== null && !allowed(rule, target, ref.kind)) violations.push({ file, line: ref.line, specifier: ref.specifier, target, why: rule.why })
    }
  }
  return violations
}

/** One line a maintainer can act on. */
export const describeViolation = (v: Violation): string => `${v.file}:${v.line} references '${v.specifier}' (${v.target}): ${v.why}`
