/**
 * Text functions as registry rows. X is text (a column or a constant); N and lengths are
 * constants.
 */
import type { Column, TextColumn, Value } from '../columns/types.js'
import { callError, constantNumber, isColumn, onConstants, requiredValue, valueArg } from './args.js'
import { textMatch, type MatchKind } from './text-match.js'
import { mapText, pad, substring, textLength, type TextMap } from './text-transform.js'
import type { FunctionDef } from './types.js'
import { firstError, needNumber, needText } from './typing.js'

/** Runs `f` on X as a text column (a constant X on one row, then repeated). */
export function onText(x: Value, rows: number, fn: string, f: (col: TextColumn) => Column): Column {
  if (!isColumn(x)) return onConstants([x], rows, (c) => onText(c[0], 1, fn, f))
  if (x.type !== 'text') throw callError(`${fn} needs text, got a number for X.`)
  return f(x)
}

function matcher(name: string, kind: MatchKind, ci: boolean, doc: string): FunctionDef {
  return {
    name,
    args: [
      { kind: 'value', name: 'X', types: ['text'] },
      { kind: 'value', name: 'Y', types: ['text'], list: true },
    ],
    result: ([x, y]) => firstError(needText(name, 'X', x), needText(name, 'Y', y)) ?? 'int',
    kernel: (args, ctx) => textMatch(kind, ci, requiredValue(args, 0, name, 'X'), requiredValue(args, 1, name, 'Y'), ctx.rows, name),
    doc,
  }
}

function mapper(name: TextMap, doc: string): FunctionDef {
  return {
    name,
    args: [{ kind: 'value', name: 'X', types: ['text'] }],
    result: ([x]) => needText(name, 'X', x) ?? 'text',
    kernel: (args, ctx) => onText(requiredValue(args, 0, name, 'X'), ctx.rows, name, (c) => mapText(name, c)),
    doc,
  }
}

function padder(name: 'padleft' | 'padright', doc: string): FunctionDef {
  return {
    name,
    args: [
      { kind: 'value', name: 'X', types: ['text'] },
      { kind: 'value', name: 'N', types: ['int'], constant: true },
    ],
    result: ([x, n]) => firstError(needText(name, 'X', x), needNumber(name, 'N', n)) ?? 'text',
    kernel: (args, ctx) => {
      const n = constantNumber(requiredValue(args, 1, name, 'N'), name, 'N') ?? 0
      return onText(requiredValue(args, 0, name, 'X'), ctx.rows, name, (c) => pad(c, n, name === 'padleft' ? 'left' : 'right'))
    },
    doc,
  }
}

function lengthDef(name: string, doc: string): FunctionDef {
  return {
    name,
    args: [{ kind: 'value', name: 'X', types: ['text'] }],
    result: ([x]) => needText(name, 'X', x) ?? 'int',
    kernel: (args, ctx) => onText(requiredValue(args, 0, name, 'X'), ctx.rows, name, textLength),
    doc,
  }
}

function substringDef(name: string, doc: string): FunctionDef {
  return {
    name,
    args: [
      { kind: 'value', name: 'X', types: ['text'] },
      { kind: 'value', name: 'S', types: ['int'], constant: true },
      { kind: 'value', name: 'L', types: ['int'], constant: true, optional: true },
    ],
    result: ([x, s, l]) => firstError(needText(name, 'X', x), needNumber(name, 'S', s), needNumber(name, 'L', l)) ?? 'text',
    kernel: (args, ctx) => {
      const start = constantNumber(requiredValue(args, 1, name, 'S'), name, 'S') ?? 1
      const lenArg = valueArg(args, 2)
      const len = lenArg === null ? null : (constantNumber(lenArg, name, 'L') ?? 0)
      return onText(requiredValue(args, 0, name, 'X'), ctx.rows, name, (c) => substring(c, start, len))
    },
    doc,
  }
}

export const TEXT: readonly FunctionDef[] = [
  matcher('contains', 'contains', false, 'contains(X;Y): 1 if text X contains Y (Y may be a list: any member), else 0.'),
  matcher('contains_ci', 'contains', true, 'contains_ci(X;Y): contains, ignoring case.'),
  matcher('beginswith', 'beginswith', false, 'beginswith(X;Y): 1 if text X starts with Y (Y may be a list), else 0.'),
  matcher('beginswith_ci', 'beginswith', true, 'beginswith_ci(X;Y): beginswith, ignoring case.'),
  matcher('endswith', 'endswith', false, 'endswith(X;Y): 1 if text X ends with Y (Y may be a list), else 0.'),
  matcher('endswith_ci', 'endswith', true, 'endswith_ci(X;Y): endswith, ignoring case.'),
  mapper('strupcase', 'strupcase(X): X in upper case.'),
  mapper('strdowncase', 'strdowncase(X): X in lower case.'),
  mapper('strtrim', 'strtrim(X): X without leading and trailing white space.'),
  lengthDef('strlen', 'strlen(X): the number of characters of X; N/A for N/A.'),
  // width is the name the 1010data Cookbook's date recipes use: width(strpick(d;'/';1))=1.
  lengthDef('width', 'width(X): the number of characters of text X (as strlen); N/A for N/A.'),
  substringDef('substr', 'substr(X;S;L): L characters of X from the 1-based position S (to the end when L is omitted).'),
  // strextract is the name the 1010data Cookbook's date recipes use: strextract(d;5;4).
  substringDef('strextract', 'strextract(X;S;L): L characters of text X from the 1-based position S (to the end when L is omitted); as substr.'),
  padder('padright', 'padright(X;N): X left-aligned in N characters: its first N characters, space-padded on the right.'),
  padder('padleft', 'padleft(X;N): X right-aligned in N characters: its last N characters, space-padded on the left.'),
]
