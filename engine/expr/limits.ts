/**
 * A cap on nesting. The parser recurses once per parenthesis, call or prefix operator, and every
 * later stage (checker, interpreter, showExpr) recurses once per tree level, so a pathological
 * expression such as 5,000 `(` or a 50,000-term sum would end in a RangeError far from here.
 * Refusing it here turns that into an ordinary EXPR_ERROR with a position.
 */
import type { Expr } from '../ast.js'
import type { TokenStream } from './stream.js'
import type { Token } from './token.js'

/** Deepest nesting accepted, both of parser recursion and of the finished tree. */
export const MAX_DEPTH = 1000

/**
 * Most arguments of one call. Later stages pass a call's arguments as a spread (`f(...types)`),
 * which overflows the stack somewhere past 100,000; no real call comes near this.
 */
export const MAX_ARGS = 10_000

/** Counts recursion while parsing and tree height as nodes are built; fails past MAX_DEPTH. */
export class DepthGuard {
  private depth = 0
  /** A Map, not a WeakMap: it lives only as long as one parse, and weak entries cost the collector far more. */
  private readonly heights = new Map<Expr, number>()

  constructor(private readonly ts: TokenStream) {}

  /** Counts one level of parser recursion starting at `token`. */
  enter(token: Token): void {
    if (++this.depth > MAX_DEPTH) this.tooDeep(token)
  }

  leave(): void {
    this.depth--
  }

  /** Records the height of a new node over its children; fails when the tree gets too tall. */
  built<T extends Expr>(node: T, children: readonly (Expr | null)[], token: Token): T {
    let height = 1
    for (const c of children) if (c) height = Math.max(height, (this.heights.get(c) ?? 1) + 1)
    if (height > MAX_DEPTH) this.tooDeep(token)
    this.heights.set(node, height)
    return node
  }

  private tooDeep(token: Token): never {
    this.ts.fail(`Expression nested too deeply at ${this.ts.at(token.loc)}: more than ${MAX_DEPTH} levels`, token)
  }
}
