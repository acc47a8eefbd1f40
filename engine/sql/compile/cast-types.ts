/**
 * The affinity of a CAST's type name, by SQLite's rules (datatype3.html, 3.1): a name holding
 * INT is INTEGER; else CHAR, CLOB or TEXT, TEXT; else BLOB (or no name), BLOB; else REAL, FLOA
 * or DOUB, REAL; else NUMERIC. The parser hands over its own reading of the name, not the text:
 * only the readings whose name as written is certain are taken, the rest is outside the subset.
 */
import { outside, type CastTo } from './ir.js'

/** The parser's type readings whose written name is the reading's own (INT, VARCHAR(10), …). */
const KNOWN: Readonly<Record<string, string>> = {
  Int: 'INT',
  Integer: 'INTEGER',
  BigInt: 'BIGINT',
  SmallInt: 'SMALLINT',
  TinyInt: 'TINYINT',
  MediumInt: 'MEDIUMINT',
  Int2: 'INT2',
  Int4: 'INT4',
  Int8: 'INT8',
  Real: 'REAL',
  Float: 'FLOAT',
  Double: 'DOUBLE',
  DoublePrecision: 'DOUBLE PRECISION',
  Text: 'TEXT',
  Varchar: 'VARCHAR',
  Nvarchar: 'NVARCHAR',
  Char: 'CHAR',
  Character: 'CHARACTER',
  Clob: 'CLOB',
  Numeric: 'NUMERIC',
  Decimal: 'DECIMAL',
  Boolean: 'BOOLEAN',
  Date: 'DATE',
  Datetime: 'DATETIME',
  String: 'STRING',
  Blob: 'BLOB',
}

export function affinityOfName(name: string): CastTo {
  const n = name.toUpperCase()
  if (n.includes('INT')) return 'integer'
  if (n.includes('CHAR') || n.includes('CLOB') || n.includes('TEXT')) return 'text'
  if (n.includes('BLOB') || n === '') throw outside('CAST AS BLOB')
  if (n.includes('REAL') || n.includes('FLOA') || n.includes('DOUB')) return 'real'
  return 'numeric'
}

export function castAffinity(dataType: unknown): CastTo {
  let key: string | null = null
  if (typeof dataType === 'string') key = dataType
  else if (typeof dataType === 'object' && dataType !== null && !Array.isArray(dataType) && Object.keys(dataType).length === 1) {
    key = Object.keys(dataType)[0]
    const body = (dataType as Record<string, unknown>)[key]
    // A name the parser does not know (POINT, "weird"): its identifier, unquoted, one part.
    if (key === 'Custom') {
      const parts = Array.isArray(body) ? body : []
      const names = Array.isArray(parts[0]) ? parts[0] : []
      const ident = names.length === 1 ? (names[0] as { Identifier?: { value?: unknown; quote_style?: unknown } }).Identifier : undefined
      if (ident === undefined || typeof ident.value !== 'string' || (ident.quote_style ?? null) !== null) throw outside('a CAST type form')
      return affinityOfName(ident.value)
    }
  }
  const name = key === null ? undefined : KNOWN[key]
  if (name === undefined) throw outside('a CAST type the parser reads otherwise')
  return affinityOfName(name)
}
