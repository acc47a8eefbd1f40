/**
 * The fixed words Tab offers: SQL keywords and functions (the analytic subset docs/sql.md lists
 * and SQLite's common functions), the macro language's elements and common functions, and the
 * shell's own commands. Table and column names come from the service (completion.ts).
 */

export const SQL_KEYWORDS = [
  'select', 'distinct', 'from', 'where', 'group', 'by', 'having', 'order', 'asc', 'desc', 'limit', 'offset',
  'join', 'inner', 'left', 'outer', 'cross', 'on', 'using', 'as', 'and', 'or', 'not', 'in', 'is', 'null',
  'like', 'glob', 'between', 'case', 'when', 'then', 'else', 'end', 'cast', 'with', 'recursive', 'union',
  'all', 'intersect', 'except', 'exists', 'over', 'partition', 'rows', 'range', 'preceding', 'following',
  'current', 'row', 'unbounded', 'integer', 'real', 'text', 'filter', 'nulls', 'first', 'last',
] // prettier-ignore

export const SQL_FUNCTIONS = [
  'count', 'sum', 'avg', 'min', 'max', 'total', 'group_concat', 'abs', 'round', 'length', 'lower', 'upper',
  'substr', 'trim', 'ltrim', 'rtrim', 'replace', 'instr', 'coalesce', 'ifnull', 'nullif', 'iif', 'typeof',
  'printf', 'date', 'time', 'datetime', 'strftime', 'julianday', 'row_number', 'rank', 'dense_rank',
  'ntile', 'lag', 'lead', 'first_value', 'last_value', 'nth_value', 'percent_rank', 'cume_dist',
] // prettier-ignore

export const XML_ELEMENTS = [
  'base', 'table', 'sel', 'willbe', 'colord', 'col', 'cols', 'sort', 'tabu', 'tcol', 'break', 'rollup',
  'link', 'merge', 'note', 'block', 'blocklet', 'let', 'set', 'insert', 'expand', 'call', 'library', 'if',
  'then', 'else', 'quote', 'for', 'foreach', 'dynamic', 'widget', 'do',
] // prettier-ignore

export const XML_ATTRIBUTES = [
  'table', 'value', 'name', 'label', 'format', 'cols', 'col', 'breaks', 'source', 'fun', 'dir', 'col2',
  'table2', 'suffix', 'type', 'desc',
] // prettier-ignore

export const MACRO_FUNCTIONS = [
  'g_sum', 'g_cnt', 'g_avg', 'g_min', 'g_max', 'g_first', 'g_last', 'g_rank', 'g_cumsum', 'g_nth',
  'contains', 'beginswith', 'endswith', 'strlen', 'strupcase', 'strdowncase', 'substr', 'splice',
  'year', 'month', 'day', 'yrmo', 'quarter', 'weekday', 'dateadd', 'datediff', 'todate', 'int',
  'abs', 'round', 'if', 'case', 'sum', 'avg', 'cnt', 'min', 'max',
] // prettier-ignore

export const DOT_COMMANDS = ['.help', '.quit', '.exit', '.format', '.values', '.ls', '.cols'] as const
