/** The macro pre-pass: blocks, variables, substitution and conditionals. */
export { expandBlocks } from './expand.js'
export { BLOCK_LIMITS } from './limits.js'
export { evalScalar } from './scalar.js'
export type { VarLookup } from './scalar.js'
export { formatScalar } from './scalar-value.js'
export type { Scalar, Atom } from './scalar-value.js'
export { BLOCK_FUNCTION_NAMES } from './scalar-functions.js'
