/**
 * Expression attributes (`value`, `source`, `weight`). Expression errors are positioned within the
 * attribute text; they are re-thrown naming the element's line and the attribute, and keep the
 * position inside the expression in the detail.
 */
import { AppError } from '../../shared/errors.js'
import type { Expr, XmlElement } from '../ast.js'
import { parseExpr } from '../expr/index.js'
import { attr, requiredAttr } from './attrs.js'

/** Parses a required expression attribute. */
export function requiredExpr(el: XmlElement, name: string): Expr {
  return parseAttr(el, name, requiredAttr(el, name))
}

/** Parses an optional expression attribute; null when absent or blank. */
export function optionalExpr(el: XmlElement, name: string): Expr | null {
  const text = attr(el, name)
  return text === undefined ? null : parseAttr(el, name, text)
}

function parseAttr(el: XmlElement, name: string, text: string): Expr {
  try {
    return parseExpr(text)
  } catch (err) {
    if (!(err instanceof AppError) || err.code !== 'EXPR_ERROR') throw err
    const exprLine = Number(err.detail.line ?? 1)
    const exprCol = Number(err.detail.col ?? 1)
    return rethrow(el, name, inExpression(err.message, exprCol), { ...err.detail, exprLine, exprCol })
  }
}

/**
 * The expression parser says where ("… at column 9"); its position is within the attribute text,
 * so the last such mention gets "of the expression". A message without one gets the column added.
 */
function inExpression(message: string, col: number): string {
  const mentions = [...message.matchAll(/\bat (?:line \d+, )?column \d+/g)]
  const last = mentions.at(-1)
  if (!last || last.index === undefined) return `${message} at column ${col} of the expression`
  const end = last.index + last[0].length
  return `${message.slice(0, end)} of the expression${message.slice(end)}`
}

function rethrow(el: XmlElement, name: string, message: string, detail: Record<string, unknown>): never {
  throw new AppError('EXPR_ERROR', `Line ${el.loc.line}, <${el.name} ${name}>: ${message}`, {
    ...detail,
    line: el.loc.line,
    col: el.loc.col,
    attribute: name,
  })
}
