/**
 * The Pratt parser: one precedence loop (`expr`) over the binding powers in precedence.ts, with
 * the prefix handlers in prefix.ts and calls in call.ts. See precedence.ts for the levels; the
 * grammar decisions the reference leaves open are listed in index.ts.
 */
import type { Expr } from '../ast.js'
import { DepthGuard } from './limits.js'
import { failAfterOperand } from './messages.js'
import { BP, INFIX } from './precedence.js'
import { parsePrefix } from './prefix.js'
import { TokenStream } from './stream.js'
import type { PositionText } from './errors.js'
import type { Token } from './token.js'

/** What prefix and call handlers may ask of the parser. */
export interface ExprParser {
  readonly ts: TokenStream
  /** Parses an operand followed by every operator that binds tighter than `minBp`. */
  expr(minBp: number): Expr
  /** Registers a finished node (for the nesting cap) and returns it. */
  node<T extends Expr>(node: T, children: readonly (Expr | null)[]): T
}

/**
 * Parses a whole token list (ending in `eof`) into one expression.
 * @throws AppError EXPR_ERROR when the tokens do not form exactly one expression
 */
export function parseTokens(tokens: readonly Token[], at: PositionText): Expr {
  return new PrattParser(new TokenStream(tokens, at)).parseAll()
}

class PrattParser implements ExprParser {
  private readonly guard: DepthGuard

  constructor(readonly ts: TokenStream) {
    this.guard = new DepthGuard(ts)
  }

  parseAll(): Expr {
    const first = this.ts.peek()
    if (first.type === 'eof') this.ts.fail(`Empty expression at ${this.ts.at(first.loc)}: expected a value`, first)
    const e = this.expr(BP.none)
    const rest = this.ts.peek()
    if (rest.type !== 'eof') failAfterOperand(this.ts, rest, '')
    return e
  }

  expr(minBp: number): Expr {
    const start = this.ts.peek()
    this.guard.enter(start)
    let left = parsePrefix(this, minBp)
    for (;;) {
      const t = this.ts.peek()
      const rule = t.type === 'op' ? INFIX[t.op] : undefined
      // An operator no tighter than ours belongs to the caller: that is what makes levels left-associative.
      if (!rule || rule.bp <= minBp) break
      this.ts.next()
      const right = this.expr(rule.bp)
      // A node's loc is its first token, so a binary node starts where its left operand (or its '(') does.
      left = this.node({ kind: 'Bin', op: rule.op, left, right, loc: start.loc }, [left, right])
    }
    this.guard.leave()
    return left
  }

  node<T extends Expr>(node: T, children: readonly (Expr | null)[]): T {
    return this.guard.built(node, children, this.ts.previous() ?? this.ts.peek())
  }
}
