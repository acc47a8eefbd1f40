/** `tabula/client`: a typed client for the tabula API (1010data Dynamic API wire format). */
export { Client, Instance, ResultHandle, apiBaseOf } from './client.js'
export type {
  ClientOptions,
  ColumnMajor,
  FormatOptions,
  KeyedRows,
  LoginOptions,
  QueryOptions,
  Range,
  RequestOptions,
  ResultOf,
  RowsResult,
  UploadOptions,
} from './client.js'
export type { QueryStatus } from '../shared/api-answers.js'
export { TabulaError, CODE_STATUS } from './errors.js'
export type { TabulaErrorCode, TabulaErrorInit } from './errors.js'
export type { FetchLike, Format, RetryPolicy, SessionParts } from './http.js'
export type {
  ColumnDecl,
  CompanyFields,
  DbmAlias,
  DbmAliasParams,
  DbmName,
  DbmParams,
  DbmValue,
  DbmValues,
  Names,
  NewTableFields,
  TableInfo,
  UploadMode,
} from './dbm.js'
