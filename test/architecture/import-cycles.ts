/**
 * Import cycles among product files (issue 18). A cycle makes a group of files one unit: none can
 * be read, tested or moved without the others, and at run time the first one loaded sees the
 * others half-initialised. Type-only imports count too: they tie the files together for a reader
 * and for the compiler even though they vanish from the output.
 *
 * The check is a pure function of the files it is given, so a test can plant a cycle and see it
 * reported, and another can run it on the tree.
 */
import { findReferences, resolveSpecifier } from './import-graph.js'

/** One import the check ignores while a colleague's branch removes it (see ALLOWED_IMPORTS). */
export interface AllowedImport {
  readonly from: string
  readonly to: string
  /** Who removes it, and why it is still here. */
  readonly why: string
}

/** Repository path → the repository paths among `files` it imports, in path order. */
export type ImportGraph = ReadonlyMap<string, readonly string[]>

/**
 * The imports among `files` (repository path → source). Static imports, `import type`,
 * export-from, `import('…')` in a type and `import()` calls all count; a worker named by
 * `new URL(…, import.meta.url)` does not, since it is loaded in another thread.
 */
export function importGraph(files: ReadonlyMap<string, string>): ImportGraph {
  const graph = new Map<string, string[]>()
  for (const file of [...files.keys()].sort()) {
    const targets = new Set<string>()
    for (const ref of findReferences(file, files.get(file)!)) {
      if (ref.kind === 'file') continue
      const target = resolveSpecifier(file, ref.specifier)
      if (target !== null && files.has(target)) targets.add(target)
    }
    graph.set(file, [...targets].sort())
  }
  return graph
}

/**
 * The groups of files that reach one another through imports (strongly connected components of
 * more than one file, or one file importing itself), each sorted, in order of their first file.
 */
export function importCycles(graph: ImportGraph): string[][] {
  // Tarjan's algorithm, iterative so a deep chain of imports cannot overflow the stack.
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const onStack = new Set<string>()
  const stack: string[] = []
  const groups: string[][] = []
  let next = 0
  for (const root of graph.keys()) {
    if (index.has(root)) continue
    const work: { file: string; edge: number }[] = [{ file: root, edge: 0 }]
    index.set(root, next)
    low.set(root, next++)
    stack.push(root)
    onStack.add(root)
    while (work.length > 0) {
      const frame = work[work.length - 1]
      const targets = graph.get(frame.file) ?? []
      if (frame.edge < targets.length) {
        const target = targets[frame.edge++]
        if (!index.has(target)) {
          index.set(target, next)
          low.set(target, next++)
          stack.push(target)
          onStack.add(target)
          work.push({ file: target, edge: 0 })
        } else if (onStack.has(target)) {
          low.set(frame.file, Math.min(low.get(frame.file)!, index.get(target)!))
        }
        continue
      }
      work.pop()
      if (work.length > 0) {
        const parent = work[work.length - 1].file
        low.set(parent, Math.min(low.get(parent)!, low.get(frame.file)!))
      }
      if (low.get(frame.file) !== index.get(frame.file)) continue
      const group: string[] = []
      let member: string
      do {
        member = stack.pop()!
        onStack.delete(member)
        group.push(member)
      } while (member !== frame.file)
      if (group.length > 1 || targets.includes(frame.file)) groups.push(group.sort())
    }
  }
  return groups.sort((a, b) => (a[0] < b[0] ? -1 : 1))
}

/** The graph without the allowed imports. */
export function withoutAllowed(graph: ImportGraph, allowed: readonly AllowedImport[]): ImportGraph {
  return new Map([...graph].map(([file, targets]) => [file, targets.filter((t) => !allowed.some((a) => a.from === file && a.to === t))]))
}

/**
 * One shortest way round a group, from its first file back to it: what a maintainer reads to
 * decide which import to cut.
 */
export function cyclePath(graph: ImportGraph, group: readonly string[]): string[] {
  const inGroup = new Set(group)
  const start = group[0]
  const cameFrom = new Map<string, string>()
  const queue = [start]
  for (let i = 0; i < queue.length; i++) {
    for (const target of graph.get(queue[i]) ?? []) {
      if (!inGroup.has(target)) continue
      if (target === start) {
        const path = [start]
        for (let at = queue[i]; at !== start; at = cameFrom.get(at)!) path.splice(1, 0, at)
        return [...path, start]
      }
      if (cameFrom.has(target)) continue
      cameFrom.set(target, queue[i])
      queue.push(target)
    }
  }
  return [start] // unreachable for a group importCycles found
}

/** One line a maintainer can act on. */
export function describeCycle(graph: ImportGraph, group: readonly string[]): string {
  const others = group.length > 2 ? ` (the group has ${group.length} files: ${group.join(', ')})` : ''
  return `${cyclePath(graph, group).join(' -> ')}${others}`
}

/**
 * Allowed imports that no longer need the allowance: the import is gone, or it no longer closes
 * a cycle. Reported so the list shrinks as the branches that break those cycles land.
 */
export function staleAllowances(graph: ImportGraph, allowed: readonly AllowedImport[]): AllowedImport[] {
  const groups = importCycles(graph)
  const sameGroup = (a: string, b: string): boolean => groups.some((g) => g.includes(a) && g.includes(b))
  return allowed.filter((a) => !(graph.get(a.from) ?? []).includes(a.to) || !sameGroup(a.from, a.to))
}
