/**
 * Function calls: `name(arg;arg;…)`. Arguments are split by `;` only; an empty argument is an
 * omitted one (`null`), so `g_sum(g;;x)` has three arguments and `f(;)` two, while `i_()` has
 * none. An argument that is two or more names separated by spaces or commas is a column list
 * (the G and O arguments of group functions), and expressions side by side are a list (the L of
 * splice); which functions accept these is the checker's business, since only it knows the
 * argument kinds.
 */
import type { Expr } from '../ast.js'
import { failAfterOperand } from './messages.js'
import { BP } from './precedence.js'
import { describeToken, isOp, startsOperand } from './token.js'
import type { Token } from './token.js'
import type { ExprParser } from './pratt.js'
import { MAX_ARGS } from './limits.js'

type NameToken = Extract<Token, { type: 'ident' }>

/** Parses the argument list of `name`, whose `(` is the next token. */
export function parseCall(p: ExprParser, name: NameToken): Expr {
  p.ts.next()
  const args: (Expr | null)[] = []
  if (p.ts.sees(')')) {
    p.ts.next()
    return p.node({ kind: 'Call', name: name.name, args, loc: name.loc }, args)
  }
  for (;;) {
    if (args.length === MAX_ARGS) {
      const t = p.ts.peek()
      p.ts.fail(`Too many arguments in ${opened(p, name)}: more than ${MAX_ARGS} (the ${MAX_ARGS + 1}th starts at ${p.ts.at(t.loc)})`, t)
    }
    args.push(parseArg(p, name))
    const t = p.ts.peek()
    if (!isOp(t, ';') && !isOp(t, ')')) failAfterOperand(p.ts, t, `';' or ')' to close ${opened(p, name)}`)
    p.ts.next()
    if (isOp(t, ')')) break
  }
  return p.node({ kind: 'Call', name: name.name, args, loc: name.loc }, args)
}

/** `'f(' opened at column 1`: calls are located by their name, where the reader sees them start. */
function opened(p: ExprParser, callee: NameToken): string {
  return `'${callee.text}(' opened at ${p.ts.at(callee.loc)}`
}

function parseArg(p: ExprParser, callee: NameToken): Expr | null {
  const t = p.ts.peek()
  if (isOp(t, ';') || isOp(t, ')')) return null
  if (t.type === 'eof') p.ts.fail(`Expected an argument or ')' to close ${opened(p, callee)}, found end of expression at ${p.ts.at(t.loc)}`, t)
  const after = p.ts.peek(1)
  if (t.type === 'ident' && (after.type === 'ident' || isOp(after, ','))) return parseColumnList(p, callee)
  const first = p.expr(BP.none)
  return startsOperand(p.ts.peek()) ? parseSideBySide(p, first) : first
}

/**
 * Expressions side by side in one argument, `strpick(d;'/';3) strpick(d;'/';1)`: a List whose
 * items need not be constants. 1010data writes the L of splice(L;D) so (the Cookbook's date
 * recipes); the checker accepts such a list there and refuses it anywhere else.
 */
function parseSideBySide(p: ExprParser, first: Expr): Expr {
  // Constants side by side already form a list (`'x' 'y'`): its items join this one's.
  const items: Expr[] = []
  for (let item = first; ; item = p.expr(BP.none)) {
    items.push(...(item.kind === 'List' ? item.items : [item]))
    if (!startsOperand(p.ts.peek())) break
  }
  return p.node({ kind: 'List', items, loc: first.loc }, items)
}

/** `state city`, `a,b`, `a, b c`: names only, and nothing else in the argument. */
function parseColumnList(p: ExprParser, callee: NameToken): Expr {
  const first = p.ts.peek()
  const names: string[] = []
  for (let t = first; ; t = p.ts.peek()) {
    if (t.type === 'ident') {
      names.push(t.name)
      p.ts.next()
    } else if (isOp(t, ',')) {
      p.ts.next()
      const n = p.ts.peek()
      if (n.type !== 'ident') p.ts.fail(`Expected a column name after ',' at ${p.ts.at(t.loc)}, found ${describeToken(n)} at ${p.ts.at(n.loc)}`, n)
    } else break
  }
  const end = p.ts.peek()
  if (end.type === 'eof') failAfterOperand(p.ts, end, `';' or ')' to close ${opened(p, callee)}`)
  if (!isOp(end, ';') && !isOp(end, ')')) {
    p.ts.fail(
      `Expected ';' or ')' after the column list '${names.join(' ')}' in ${callee.text}(…) at ${p.ts.at(callee.loc)}, ` +
        `found ${describeToken(end)} at ${p.ts.at(end.loc)}: a column list holds only column names and cannot be part of an expression`,
      end,
    )
  }
  return p.node({ kind: 'ColList', names, loc: first.loc }, [])
}
