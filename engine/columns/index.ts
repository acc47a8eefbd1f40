/** Public API of the column layer: constructors, dictionary helpers and the shared kernels. */
export type { BigIntColumn, Column, ColumnType, FloatColumn, GroupIndex, IntColumn, NumberColumn, Scalar, ScalarList, TextColumn, Value } from './types.js'
export { NA_FLOAT, NA_INT, NA_BIGINT, BIGINT_MAX, SAFE_INT_MAX, columnLength, isBigInt, isFloat, isWideType, isNumericType, widerNumber } from './types.js'
export { bigintFromFloats, bigintToFloats, bigintWords, exactFloats, intToBigint, isNaWords, naBigints, pastSafeRange, withinSafeRange } from './bigint.js'
export {
  columnFromValues,
  compareStrings,
  dateColumn,
  floatColumn,
  intColumn,
  naColumn,
  scalarToColumn,
  textColumnFromStrings,
  toFloat,
  toBigint,
  bigintColumn,
} from './make.js'
export { columnValues, isNA, valueAt } from './access.js'
export {
  intFromDictMap,
  lookupCode,
  lowerBound,
  mergeDicts,
  remapCodes,
  textFromDictMap,
  unifyText,
  unifyTextColumns,
  upperBound,
  usedCodes,
  withUsedEntriesOnly,
} from './dict.js'
export { gather } from './gather.js'
export { rowsOfPartition } from './key-partitions.js'
export { firstRowOfGroups, groupBy } from './group-by.js'
export { firstIndexLookup } from './lookup.js'
export { asofLookup } from './asof-lookup.js'
export { sortPermutation, type SortKey } from './sort.js'
