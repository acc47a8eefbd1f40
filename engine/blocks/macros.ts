/**
 * The macro elements the pre-pass consumes, one handler each. Anything not listed here (or in the
 * pass-through and refused sets) is a data operation and is copied with its values substituted.
 */
import { blockError } from './errors.js'
import { checkVariableName } from './names.js'
import { Scope } from './scope.js'
import { expandBlockInPlace, expandBlocklet, expandCall, registerBlock } from './calls.js'
import { expandIf, expandSet } from './conditionals.js'
import { expandFor, expandForeach } from './loops.js'
import { expandQuote } from './quote.js'
import { attrWhere } from './walker.js'
import type { MacroHandler } from './walker.js'

/** `<macro>`/`<query>` wrappers: their content, in the same scope. */
const unwrap: MacroHandler = (el, scope, frame, out, w) => w.nodes(el.children, scope, frame, out)

/** `<library>`: registers its blocks without running them. */
const library: MacroHandler = (el, _scope, frame, _out, w) => {
  for (const child of el.children) {
    if (child.kind === 'Element' && child.name === 'block') registerBlock(child, w.state.blocks, frame.trail)
    else if (!(child.kind === 'Element' && child.name === 'note')) {
      throw blockError(child.loc, `<library> may only contain <block> elements, not ${child.kind === 'Text' ? 'text' : `<${child.name}>`}`, frame.trail)
    }
  }
}

/** `<let a="…">`: bindings visible to its children only; each value sees the ones before it. */
const letBlock: MacroHandler = (el, scope, frame, out, w) => {
  const inner = new Scope(scope, true)
  for (const [attr, value] of Object.entries(el.attrs)) {
    checkVariableName(attr, el.loc, '<let>', frame.trail)
    inner.define(attr, w.subst(value, inner, attrWhere(el, attr, frame)))
  }
  w.nodes(el.children, inner, frame, out)
}

const misplaced =
  (where: string): MacroHandler =>
  (el, _scope, frame) => {
    throw blockError(el.loc, `<${el.name}> is only allowed directly inside ${where}`, frame.trail)
  }

/** Handlers by element name for everything the pre-pass consumes. */
export const MACROS: Readonly<Record<string, MacroHandler>> = {
  macro: unwrap,
  query: unwrap,
  note: () => {},
  library,
  block: expandBlockInPlace,
  blocklet: expandBlocklet,
  let: letBlock,
  insert: expandCall('insert'),
  expand: expandCall('expand'),
  call: expandCall('call'),
  set: expandSet,
  if: expandIf,
  foreach: expandForeach,
  for: expandFor,
  quote: expandQuote,
  then: misplaced('<if>'),
  else: misplaced('<if>'),
}

/** Handled later by the dynamic-instance layer: kept exactly as written, content included. */
export const PASS_THROUGH: ReadonlySet<string> = new Set(['dynamic', 'widget', 'do', 'layout'])

/** Block-control elements that need parts of 1010data this service does not have, and why. */
export const REFUSED: Readonly<Record<string, string>> = {
  import:
    "is not supported: it loads a library saved in 1010data's own library store, which this service does not have; put the <library> with its <block> definitions in the query itself",
  loop: 'is not supported: it runs 1010data platform actions (saving tables, combining tabs) between queries, which one api/run query cannot do; use <foreach> or <for> to repeat operations inside a query',
}
