/**
 * The lexer's output: one token per operand or operator, each with its source text and position.
 * Literals are already decoded (numbers, yyyymmdd dates, hhmmss times, unescaped text) so the
 * parser never looks at characters.
 */
import type { Loc } from '../ast.js'

/** Every operator and punctuation token. */
export type OpText = '^' | '*' | '/' | '+' | '-' | '=' | '<>' | '<' | '>' | '<=' | '>=' | '&' | '|' | '~' | '(' | ')' | ';' | ','

interface TokenBase {
  /** The token as written (for messages and `found`). */
  readonly text: string
  readonly loc: Loc
}

export type Token =
  | (TokenBase & { readonly type: 'num'; readonly value: number; readonly int: boolean; readonly digits?: string })
  | (TokenBase & { readonly type: 'str'; readonly value: string })
  | (TokenBase & { readonly type: 'date'; readonly value: number })
  | (TokenBase & { readonly type: 'time'; readonly value: number })
  /** A column or function name, lower-cased. */
  | (TokenBase & { readonly type: 'ident'; readonly name: string })
  /** `@name` or `@name.field`, lower-cased, without the `@`. */
  | (TokenBase & { readonly type: 'var'; readonly name: string })
  | (TokenBase & { readonly type: 'op'; readonly op: OpText })
  | (TokenBase & { readonly type: 'eof' })

export type ConstantToken = Extract<Token, { type: 'num' | 'str' | 'date' | 'time' }>

/** Tokens that can be items of a list. */
export function isConstant(t: Token): t is ConstantToken {
  return t.type === 'num' || t.type === 'str' || t.type === 'date' || t.type === 'time'
}

/** Tokens that can begin an operand: seeing one where an operator belongs means one is missing. */
export function startsOperand(t: Token): boolean {
  return isConstant(t) || t.type === 'ident' || t.type === 'var' || (t.type === 'op' && (t.op === '(' || t.op === '~'))
}

/** Whether `t` is the operator `op`. */
export function isOp(t: Token, op: OpText): boolean {
  return t.type === 'op' && t.op === op
}

/** Names a token for a message: `name 'state'`, `number 12`, `')'`, `end of expression`. */
export function describeToken(t: Token): string {
  switch (t.type) {
    case 'num':
      return `number ${t.text}`
    case 'str':
      return `text ${oneLine(t.text)}`
    case 'date':
      return `date ${t.text}`
    case 'time':
      return `time ${t.text}`
    case 'ident':
      return `name '${t.text}'`
    case 'var':
      return `variable '${t.text}'`
    case 'op':
      return `'${t.text}'`
    case 'eof':
      return 'end of expression'
  }
}

/** Long or multi-line text literals are shortened so a message stays one readable line. */
function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ')
  return flat.length > 30 ? `${flat.slice(0, 29)}…'` : flat
}
