export { checkQuery, Checker, type TableSchemas } from './check-ops.js'
export { typeExpr, argSpec, type Typed } from './expr-types.js'
export { parseDateText } from './date-literals.js'
export type { Schema, SchemaCol } from './schema.js'
