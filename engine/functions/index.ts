/** Public API of the function registry. */
export type { ArgKind, ArgSpec, FunctionDef, KernelArg, KernelContext } from './types.js'
export { FUNCTIONS, isRowWise, lookupFunction } from './registry.js'
export { arithmetic } from './arith.js'
export { compare, compareResult } from './compare.js'
export type { CmpOp } from './compare-loops.js'
export { truthy } from './logic.js'
export { groupCounts, groupExtremes, groupSums } from './group/per-group.js'
export { describeType, type TypeResult } from './typing.js'
