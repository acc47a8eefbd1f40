/** `api/sql` (and its alias `api/sql/new`): one read-only SQL statement over readable tables. */
import { prepareSql, runSqlRecipe, type SqlRecipe } from '../queries/sql.js'
import { sqlFormPage } from './pages.js'
import type { QueryEndpoint } from './query-endpoint.js'

export const SQL_ENDPOINT: QueryEndpoint<SqlRecipe> = {
  app: 'sql',
  param: 'sql',
  prepare: prepareSql,
  execute: runSqlRecipe,
  form: (route) => sqlFormPage(route, ''),
}
