export { runOps, type Tables } from './run.js'
export type { TableInput, TableColumnInput } from './tables.js'
export { Worksheet } from './worksheet.js'
