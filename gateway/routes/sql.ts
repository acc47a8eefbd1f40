/** `api/sql` (and its alias `api/sql/new`): one read-only SQL statement over readable tables. */
import { prepareSql, type SqlRecipe } from '../query/sql.js'
import { sqlFormPage } from './pages.js'
import type { QueryEndpoint } from './query-endpoint.js'

export const SQL_ENDPOINT: QueryEndpoint<SqlRecipe> = {
  app: 'sql',
  param: 'sql',
  prepare: prepareSql,
  form: (route) => sqlFormPage(route, ''),
}
