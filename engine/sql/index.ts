/**
 * engine/sql: what the gateway and the worker need to handle user SQL text. The lexer, the
 * read-only guard and the table-path rewriting; `quoteIdent` is the one way to quote a name.
 */
export { tokenize, isSignificant } from './tokenize.js'
export type { Token, TokenType, IdentToken, ErrorToken, PlainToken, LexErrorReason } from './tokenize.js'
export { checkReadOnlySql } from './guard.js'
export { findTableRefs, rewriteTableRefs, quoteIdent } from './table-refs.js'
export type { TableRef } from './table-refs.js'
