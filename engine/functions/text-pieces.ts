/**
 * strpick(X;D;N): the Nth piece of X when X is cut at every occurrence of the delimiter D (the
 * 1010data Cookbook takes dates apart with it: strpick(date_column;'/';3) is the year of
 * '01/04/2015'). Pieces count from 1; a piece that does not exist, or is empty, is N/A ('').
 * Runs once per dictionary entry.
 */
import { textFromDictMap } from '../columns/index.js'
import type { TextColumn } from '../columns/types.js'

/** Piece `n` (1-based) of each value of `x` cut at `delimiter`. */
export function pickPiece(x: TextColumn, delimiter: string, n: number): TextColumn {
  return textFromDictMap(x, (s) => s.split(delimiter)[n - 1] ?? '')
}
