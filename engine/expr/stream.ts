/**
 * The parser's view of the token list: a cursor with look-ahead and one way to fail at a token.
 * The lexer always ends the list with `eof`, and the cursor never moves past it, so `peek` and
 * `next` need no bounds checks in the parser.
 */
import { exprSyntaxError } from './errors.js'
import type { PositionText } from './errors.js'
import { isOp } from './token.js'
import type { OpText, Token } from './token.js'

/** A cursor over the lexer's tokens for the parser. */
export class TokenStream {
  private pos = 0

  constructor(
    private readonly tokens: readonly Token[],
    /** Words for a position, as every message states it. */
    readonly at: PositionText,
  ) {}

  /** The token `k` places ahead (the final `eof` once past the end). */
  peek(k = 0): Token {
    return this.tokens[Math.min(this.pos + k, this.tokens.length - 1)]
  }

  /** The token consumed `k` tokens before the last one (0: the last one), if any. */
  previous(k = 0): Token | undefined {
    return this.pos - 1 - k >= 0 ? this.tokens[this.pos - 1 - k] : undefined
  }

  next(): Token {
    const t = this.peek()
    if (t.type !== 'eof') this.pos++
    return t
  }

  /** Whether the next token is the operator `op`. */
  sees(op: OpText): boolean {
    return isOp(this.peek(), op)
  }

  /** Throws EXPR_ERROR at `token`, naming it in the detail. */
  fail(message: string, token: Token): never {
    throw exprSyntaxError(message, token.loc, token.text)
  }
}
