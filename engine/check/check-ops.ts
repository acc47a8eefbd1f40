/**
 * Walks the operation list over schemas only, the way the interpreter will walk it over data:
 * every column, function, table and summary named must exist and every expression must type
 * check, before any data is touched. Returns the operations with normalised expressions.
 */
import type { BreakSpec, Expr, Op, OpOf, Tcol } from '../ast.js'
import type { ColumnSpec } from '../../shared/table.js'
import { COLUMN_NAME } from '../../shared/table.js'
import { lookupSummary, SUMMARY_NAMES } from '../summaries/index.js'
import { inlineColumnType } from '../interpret/inline-table.js'
import { matchesPattern } from '../interpret/patterns.js'
import { placeholderValue } from '../interpret/ops/rollup-placeholder.js'
import { resolveCols } from '../interpret/ops/cols.js'
import { checkError, inExpression } from './errors.js'
import { typeExpr, type Typed } from './expr-types.js'
import type { Loc } from '../ast.js'
import { findCol, Schema, type SchemaCol } from './schema.js'
import { markChecked, type CheckedOp, type CheckedOps } from './checked.js'

/** Schemas of the tables the query may read, by dotted path. */
export type TableSchemas = ReadonlyMap<string, readonly ColumnSpec[]>

/**
 * Units of work (roughly: columns visited) the checker may spend on one query. The check runs on
 * the gateway's own thread, and operations that visit every column (colord, tabu, link, merge)
 * repeated after thousands of willbes would otherwise make it quadratic in the query's length.
 */
export const CHECK_BUDGET = 20_000_000

function requireCol(s: Schema, name: string, op: Op): SchemaCol | null {
  const col = findCol(s, name)
  if (!col && !s.open) throw checkError(op.loc, `Unknown column "${name}" in <${op.kind.toLowerCase()}>.`, { column: name })
  return col ?? null
}

function newName(s: Schema, name: string, op: Op): void {
  if (!COLUMN_NAME.test(name)) throw checkError(op.loc, `Invalid column name "${name}": use a letter, then letters, digits or underscores.`)
  if (findCol(s, name)) throw checkError(op.loc, `A column named "${name}" already exists; choose another name.`, { column: name })
}

/** Types an expression, reporting errors at the operation that holds it. */
function typed(e: Expr, s: Schema, loc: Loc, where: string): Typed {
  try {
    return typeExpr(e, s)
  } catch (err) {
    throw inExpression(err, loc, where)
  }
}

function numericCondition(e: Expr, s: Schema, op: Op): Expr {
  const t = typed(e, s, op.loc, '<sel value>')
  if (t.type === 'text' || t.list) throw checkError(op.loc, 'A selection must be a 0/1 expression, such as a comparison; this one gives text.')
  return t.expr
}

/** One operation checked: the schema after it, and the operation as the interpreter will run it. */
interface Checked {
  readonly schema: Schema
  readonly op: Op & { readonly ops?: CheckedOps }
}

export class Checker {
  private spent = 0

  constructor(private readonly tables: TableSchemas) {}

  /** Counts `units` of work for `op`; refuses the query once CHECK_BUDGET is spent. */
  private charge(units: number, op: Op): void {
    this.spent += units
    if (this.spent > CHECK_BUDGET) {
      throw checkError(
        op.loc,
        `The query is too large to check: its operations visit more than ${CHECK_BUDGET} columns in all. Use fewer operations or fewer columns.`,
      )
    }
  }

  private tableSchema(path: string, op: Op): Schema {
    const specs = this.tables.get(path)
    if (!specs) throw checkError(op.loc, `No such table "${path}".`, { table: path })
    this.charge(specs.length, op)
    return Schema.of(specs.map((c) => ({ name: c.name.toLowerCase(), type: c.type, visible: true })))
  }

  /** Checks a pipeline starting from `start`; returns its final schema and checked ops. */
  run(ops: readonly Op[], start: Schema = Schema.of([])): { schema: Schema; ops: CheckedOps } {
    let schema = start
    const out: CheckedOp[] = []
    for (const op of ops) {
      this.charge(1, op)
      const r = this.step(op, schema)
      schema = r.schema
      out.push(markChecked(r.op))
    }
    return { schema, ops: out }
  }

  private step(op: Op, s: Schema): Checked {
    switch (op.kind) {
      case 'Base':
        return { schema: this.tableSchema(op.table, op), op }
      case 'Table':
        this.charge(op.cols.length, op)
        return {
          op,
          schema: Schema.of(op.cols.map((name, c) => ({ name, visible: true, type: op.types?.[c] ?? inlineColumnType(op.rows.map((r) => r[c] ?? '')) }))),
        }
      case 'Sel':
        return { schema: s, op: { ...op, cond: numericCondition(op.cond, s, op) } }
      case 'Willbe': {
        newName(s, op.name, op)
        const t = typed(op.value, s, op.loc, '<willbe value>')
        if (t.list) throw checkError(op.loc, `A list of values cannot be a column; <willbe name="${op.name}"> needs one value per row.`)
        return { schema: s.append([{ name: op.name, type: t.type, visible: true }]), op: { ...op, value: t.expr } }
      }
      case 'Colord':
        return { op, schema: this.colord(op, s) }
      case 'ColMeta':
        requireCol(s, op.name, op)
        return { schema: s, op }
      case 'Cols':
        return { schema: this.cols(op, s), op }
      case 'Sort':
        this.charge(op.keys.length, op)
        for (const k of op.keys) requireCol(s, k.col, op)
        return { schema: s, op }
      case 'Tabu':
        return this.tabu(op, s)
      case 'Link':
        return this.link(op, s)
      case 'Merge':
        return this.merge(op, s)
    }
  }

  /** The schema after `<cols>`: columns moved by its entries; with columns still open, the interpreter resolves them. */
  private cols(op: OpOf<'Cols'>, s: Schema): Schema {
    this.charge(s.length + op.entries.length, op)
    if (s.open) return s
    const { order } = resolveCols(
      op,
      s.cols.map((c) => c.name),
    )
    if (!order) return s
    const byName = new Map(s.cols.map((c) => [c.name, c]))
    return Schema.of(order.map((name) => byName.get(name) as SchemaCol))
  }

  private colord(op: OpOf<'Colord'>, s: Schema): Schema {
    const shownBy = this.patternTest(op.cols ?? ['*'], s, op)
    const hiddenBy = this.patternTest(op.hide, s, op)
    const cols = s.cols.map((c) => ({ ...c, visible: shownBy(c.name) && !hiddenBy(c.name) }))
    return Schema.of(op.hard ? cols.filter((c) => c.visible) : cols, s.open)
  }

  /**
   * Whether a name matches any of `patterns`: exact names by lookup, wildcards one by one. A
   * wildcard match may cost the product of the two lengths, so that is what is charged.
   */
  private patternTest(patterns: readonly string[], s: Schema, op: Op): (name: string) => boolean {
    const exact = new Set(patterns.filter((p) => !p.includes('*')))
    const wild = patterns.filter((p) => p.includes('*'))
    const nameChars = s.cols.reduce((n, c) => n + c.name.length + 1, 0)
    this.charge(s.length + patterns.length + nameChars * wild.reduce((n, p) => n + p.length + 1, 0), op)
    return (name) => exact.has(name) || wild.some((p) => matchesPattern(name, p))
  }

  private tcolType(t: Tcol, s: Schema): { tcol: Tcol; type: SchemaCol['type'] } {
    const def = lookupSummary(t.fun)
    if (!def) throw checkError(t.loc, `Unknown summary fun="${t.fun}"; use one of ${SUMMARY_NAMES.join(', ')}.`)
    if (def.needsSource && !t.source) throw checkError(t.loc, `<tcol fun="${t.fun}"> needs a source column.`)
    if (def.needsWeight && !t.weight) throw checkError(t.loc, `<tcol fun="${t.fun}"> needs a weight column.`)
    const source = t.source ? typed(t.source, s, t.loc, '<tcol source>') : null
    const weight = t.weight ? typed(t.weight, s, t.loc, '<tcol weight>') : null
    if (source && def.types && !def.types.includes(source.type)) throw checkError(t.loc, `<tcol fun="${t.fun}"> needs a numeric source, got ${source.type}.`)
    if (weight && !(def.weightTypes ?? ['int', 'bigint', 'float', 'date']).includes(weight.type))
      throw checkError(t.loc, `<tcol fun="${t.fun}"> needs a numeric weight.`)
    // Word for word what the interpreter said when it met the list, before the checker looked for it.
    if (source?.list || weight?.list) throw checkError(undefined, 'A list of values cannot be a column.')
    return { tcol: { ...t, source: source?.expr ?? null, weight: weight?.expr ?? null }, type: def.result(source?.type ?? null) }
  }

  private tabu(op: OpOf<'Tabu'>, s: Schema): Checked {
    this.charge(op.breaks.length + op.cbreaks.length + op.breakSpecs.length + op.tcols.length, op)
    for (const b of [...op.breaks, ...op.cbreaks]) requireCol(s, b, op)
    const breakNames = new Set([...op.breaks, ...op.cbreaks])
    for (const b of op.breakSpecs) {
      if (!breakNames.has(b.col)) throw checkError(b.loc, `<break col="${b.col}"> names a column that is not in breaks or cbreaks.`)
    }
    const tcols = op.tcols.map((t) => this.tcolType(t, s))
    if (tcols.length === 0) throw checkError(op.loc, '<tabu> needs at least one <tcol>.')
    // The first <break> of a column is the one that counts, as with a search from the front.
    const specs = new Map<string, BreakSpec>()
    for (const spec of op.breakSpecs) if (!specs.has(spec.col)) specs.set(spec.col, spec)
    const breakCols = op.breaks.map((b) => {
      const spec = specs.get(b)
      return { name: spec?.rename ?? b, type: findCol(s, b)?.type ?? 'text', visible: true }
    })
    const names = new Set(breakCols.map((c) => c.name))
    const valueCols = op.cbreaks.length > 0 ? [] : tcols.map((t, i) => ({ name: t.tcol.name ?? `t${i}`, type: t.type, visible: true }))
    if (op.rollup?.ind) valueCols.push({ name: op.rollup.ind, type: 'int', visible: true })
    for (const c of valueCols) {
      if (names.has(c.name))
        throw checkError(op.loc, `Two columns of the tabulation would be named "${c.name}"; give the <tcol> (or the <rollup ind>) another name.`)
      names.add(c.name)
    }
    if (op.rollup) this.rollup(op, s)
    return { schema: Schema.of([...breakCols, ...valueCols], op.cbreaks.length > 0), op: { ...op, tcols: tcols.map((t) => t.tcol) } }
  }

  /** A rollup adds rows to a plain tabulation: its placeholders must fit their break columns. */
  private rollup(op: OpOf<'Tabu'>, s: Schema): void {
    this.charge(op.rollup!.sets.length * (op.breaks.length + op.tcols.length), op)
    if (op.cbreaks.length > 0)
      throw checkError(op.rollup!.loc, '<rollup> in a cross-tabulation (cbreaks) is not supported: roll up a tabulation with breaks only.')
    for (const spec of op.breakSpecs) {
      const type = findCol(s, spec.col)?.type
      if (spec.placeholder && type && op.breaks.includes(spec.col)) placeholderValue({ ...spec, placeholder: spec.placeholder }, type)
    }
  }

  private link(op: OpOf<'Link'>, s: Schema): Checked {
    const foreign = this.run(op.ops, this.tableSchema(op.table2, op))
    if (op.col.length !== op.col2.length)
      throw checkError(op.loc, `<link> col and col2 must name the same number of columns (${op.col.length} and ${op.col2.length}).`)
    op.col.forEach((c, i) => {
      const mine = requireCol(s, c, op)
      const theirs = findCol(foreign.schema, op.col2[i])
      if (!theirs && !foreign.schema.open) throw checkError(op.loc, `Unknown column "${op.col2[i]}" in ${op.table2} (col2 of <link>).`)
      if (mine && theirs && (mine.type === 'text') !== (theirs.type === 'text')) {
        throw checkError(op.loc, `<link> keys ${c} (${mine.type}) and ${op.col2[i]} (${theirs.type}) have different types.`)
      }
    })
    if (op.type === 'asof') {
      // The last key pair is matched by order (the greatest foreign key not above this row's).
      const at = op.col.length - 1
      const mine = findCol(s, op.col[at])
      if (mine?.type === 'text')
        throw checkError(op.loc, `<link type="asof"> matches its last key (${op.col[at]}) by order: give a number or a date column last, not text.`)
    }
    if (op.type === 'include' || op.type === 'exclude') return { schema: s, op: { ...op, ops: foreign.ops } }
    this.charge(op.col.length + foreign.schema.length + (op.cols?.length ?? 0), op)
    const keys = new Set(op.keepcols === true ? [] : op.col2)
    const brought = (op.cols ?? foreign.schema.cols.filter((c) => c.visible && !keys.has(c.name)).map((c) => c.name)).map((name) => {
      const col = findCol(foreign.schema, name)
      if (!col && !foreign.schema.open) throw checkError(op.loc, `Unknown column "${name}" in ${op.table2} (cols of <link>).`)
      return { name: name + op.suffix, type: col?.type ?? 'float', visible: true }
    })
    for (const c of brought) {
      if (findCol(s, c.name)) throw checkError(op.loc, `<link> would add a second column named "${c.name}"; set suffix="…" or choose cols.`)
    }
    return { schema: s.append(brought, s.open || foreign.schema.open), op: { ...op, ops: foreign.ops } }
  }

  private merge(op: OpOf<'Merge'>, s: Schema): Checked {
    const foreign = this.run(op.ops, this.tableSchema(op.table2, op))
    this.charge(s.length, op)
    for (const c of s.cols) {
      const f = findCol(foreign.schema, c.name)
      if (f && (f.type === 'text') !== (c.type === 'text'))
        throw checkError(op.loc, `<merge>: column "${c.name}" is ${c.type} here but ${f.type} in ${op.table2}.`)
    }
    // Columns only the foreign side has come after the current ones (N/A on the current rows).
    const added = foreign.schema.cols.filter((f) => !findCol(s, f.name))
    this.charge(added.length, op)
    return { schema: added.length === 0 ? s : s.append(added, s.open || foreign.schema.open), op: { ...op, ops: foreign.ops } }
  }
}

/** Checks a whole query against the schemas of the tables it reads. */
export function checkQuery(ops: readonly Op[], tables: TableSchemas): { schema: Schema; ops: CheckedOps } {
  const r = new Checker(tables).run(ops)
  if (r.schema.length === 0 && !r.schema.open && ops.length === 0) throw checkError(undefined, 'The query has no operations; start it with <base table="…"/>.')
  return r
}
