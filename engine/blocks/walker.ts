/** What the macro handlers need from the expander, kept as an interface to avoid import cycles. */
import type { Loc, XmlElement, XmlNode } from '../ast.js'
import type { Trail, Where } from './errors.js'
import type { Scope } from './scope.js'

/** Shared, mutable state of one expansion. */
export interface ExpansionState {
  /** The dynamic variables; the only scope a `<call>`ed block can read. */
  readonly root: Scope
  /** Registered blocks by lower-cased name. */
  readonly blocks: Map<string, XmlElement>
  elements: number
  steps: number
  /** Characters produced and evaluated so far, and how many may be. */
  chars: number
  readonly charBudget: number
}

/** Where the expansion is: how many blocks deep, and the insertion chain for messages. */
export interface Frame {
  readonly depth: number
  readonly trail: Trail | null
}

/** The expander as the handlers see it. */
export interface Walker {
  readonly state: ExpansionState
  /** Expands `nodes` in `scope`, appending the results to `out`. */
  nodes(nodes: readonly XmlNode[], scope: Scope, frame: Frame, out: XmlNode[]): void
  /** Substitutes every `{…}` in `text`. */
  subst(text: string, scope: Scope, where: Where): string
  /** Counts one unit of work, refusing runaway expansions. */
  step(loc: Loc, frame: Frame): void
  /** Counts characters produced or about to be parsed, refusing expansions that produce too much text. */
  spend(chars: number, where: Where): void
}

/** Expands one macro element (`<let>`, `<insert>`, `<if>`…) in place. */
export type MacroHandler = (el: XmlElement, scope: Scope, frame: Frame, out: XmlNode[], w: Walker) => void

/** How an attribute of an element is named in messages: `<sel value>`. */
export function attrWhere(el: XmlElement, attr: string, frame: Frame): Where {
  return { loc: el.loc, what: `<${el.name} ${attr}>`, trail: frame.trail }
}
