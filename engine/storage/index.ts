/** Public API of the table storage layer: immutable, versioned, columnar table files. */
export type { ColumnValues, LoadedColumn } from './types.js'
export type { TableInput } from './write.js'
export type { EncodedText } from './dictionary.js'
export {
  columnFile,
  dictFile,
  isVersionId,
  META_FILE,
  newVersionId,
  SQLITE_FILE,
  tablesDir,
  TEMP_PREFIX,
  versionDir,
} from './layout.js'
export { writeTableVersion } from './write.js'
export { cloneTableVersion } from './clone.js'
export { columnView, loadColumn, loadSqliteImage, readFileShared, readTableMeta } from './read.js'
export { buildSqliteImage, SQLITE_TABLE } from './sqlite-image.js'
export { encodeText } from './dictionary.js'
export { isYmd, validateTable } from './validate.js'
export { removeStaleTempFolders, removeTableVersion, removeUncommittedVersions } from './cleanup.js'
