/**
 * The references one TypeScript source makes to other files, found with the TypeScript parser
 * (not a regular expression, so an import quoted in a comment or a string is not one), and
 * resolved to repository paths the way NodeNext resolves them (`./x.js` is `./x.ts`).
 */
import ts from 'typescript'
import { posix } from 'node:path'

/**
 * How the file is reached: `import` covers import and export-from statements, `import type`,
 * `import x = require()` and `import('…')` in a type; `dynamic` is an `import()` call; `file` is
 * `new URL('…', import.meta.url)`, how a thread entry (a worker file) is named.
 */
export type ReferenceKind = 'import' | 'dynamic' | 'file'

export interface Reference {
  /** The specifier as written; '' for a dynamic import of something other than a literal. */
  readonly specifier: string
  readonly kind: ReferenceKind
  /** 1-based. */
  readonly line: number
}

/** Every reference in `source`, in order. */
export function findReferences(path: string, source: string): Reference[] {
  const file = ts.createSourceFile(path, source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS)
  const found: Reference[] = []
  const add = (node: ts.Node, specifier: string, kind: ReferenceKind): void => {
    found.push({ specifier, kind, line: file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1 })
  }
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      add(node, node.moduleSpecifier.text, 'import')
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      if (ts.isStringLiteral(node.moduleReference.expression)) add(node, node.moduleReference.expression.text, 'import')
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      add(node, node.argument.literal.text, 'import')
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const target = node.arguments[0]
      add(node, target !== undefined && ts.isStringLiteralLike(target) ? target.text : '', 'dynamic')
    } else if (isFileUrl(node)) {
      add(node, node.arguments[0].text, 'file')
    }
    ts.forEachChild(node, visit)
  }
  visit(file)
  return found
}

/** `new URL('literal', import.meta.url)`. */
function isFileUrl(node: ts.Node): node is ts.NewExpression & { arguments: readonly [ts.StringLiteralLike, ts.Expression] } {
  if (!ts.isNewExpression(node) || !ts.isIdentifier(node.expression) || node.expression.text !== 'URL') return false
  const [target, base] = node.arguments ?? []
  return target !== undefined && ts.isStringLiteralLike(target) && base !== undefined && isImportMetaUrl(base)
}

function isImportMetaUrl(node: ts.Expression): boolean {
  return (
    ts.isPropertyAccessExpression(node) &&
    ts.isMetaProperty(node.expression) &&
    node.expression.keywordToken === ts.SyntaxKind.ImportKeyword &&
    node.name.text === 'url'
  )
}

/**
 * The repository path a relative specifier names, from the file at `from` (both '/'-separated,
 * relative to the repository root); null for a package or a `node:` module.
 */
export function resolveSpecifier(from: string, specifier: string): string | null {
  if (!specifier.startsWith('./') && !specifier.startsWith('../')) return null
  const target = posix.normalize(posix.join(posix.dirname(from), specifier))
  return target
    .replace(/\.js$/, '.ts')
    .replace(/\.mjs$/, '.mts')
    .replace(/\.cjs$/, '.cts')
}
