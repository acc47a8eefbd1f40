/**
 * The model of a dynamic query (reference §7): what `<dynamic>` declares, its widgets, its `<do>`
 * blocks and its layouts. Plain, JSON-serialisable data, so the gateway can store a parsed app
 * with the instance and any gateway process can read it back without parsing again.
 */
import type { Loc } from '../ast.js'

/** One `<widget>`, wherever it sits inside the `<dynamic>` (layouts included). */
export interface DynamicWidget {
  /** The `name` attribute, or a generated `w1`, `w2`… for an unnamed widget. */
  readonly name: string
  /** False when `name` was generated. */
  readonly named: boolean
  /** `class_`, default `grid`. */
  readonly class: string
  /** Every attribute except `name` and `class_`, entity-decoded, as written. */
  readonly attrs: Readonly<Record<string, string>>
  /** The variable of `value_="@var"`, or null when the widget is not bound. */
  readonly binding: string | null
  /** The widget's body as query text (toXml), '' when the body is empty. */
  readonly query: string
  /**
   * Variables (declared ones and `count`) whose change can change what the widget shows: the
   * ones its body or attributes mention, its binding, and, when its body calls blocks, the ones
   * the query's libraries mention. Document order of first mention.
   */
  readonly uses: readonly string[]
  readonly loc: Loc
}

/** One `name="expr"` attribute of a `<set>` inside an event `<do>`. */
export interface SetStatement {
  /** A declared variable. */
  readonly name: string
  /** The expression text as written (see evalSetValue for how it is read). */
  readonly expr: string
  /** The `<set>` element, for messages. */
  readonly loc: Loc
}

/** `on_="init"` or `on_="change(x,y)"`. */
export type EventTrigger = 'init' | { readonly change: readonly string[] }

/** `<do on_="…"><set y="…"/></do>`: assigns variables when its trigger fires. */
export interface EventDo {
  readonly kind: 'event'
  readonly name: string | null
  readonly on: EventTrigger
  readonly sets: readonly SetStatement[]
  readonly loc: Loc
}

/** One `valueN_` / `rowN_` / `colN_` triple: copy cell (row, col) of the result (1-based) into `var`. */
export interface RecomputeCell {
  readonly var: string
  readonly row: number
  readonly col: number
}

/** `<do onchange_="@x" value1_="y" row1_="1" col1_="1">query</do>`: the classic recompute form. */
export interface RecomputeDo {
  readonly kind: 'recompute'
  readonly name: string | null
  /** Fires when one of these changed. */
  readonly onchange: readonly string[]
  /** Fires when one of these was set by the request, even to the value it had. */
  readonly onsame: readonly string[]
  readonly cells: readonly RecomputeCell[]
  /** The body as query text. */
  readonly query: string
  readonly loc: Loc
}

/**
 * When an action `<do>` runs: on the variables of `onchange_` (changed) and `onsame_` (set by a
 * request), as the recompute form; or on an `on_` event trigger; or, with none of these, once
 * when the instance starts.
 */
export interface ActionTrigger {
  readonly onchange: readonly string[]
  readonly onsame: readonly string[]
  /** `on_="init"` / `on_="change(x)"`, or null. */
  readonly on: EventTrigger | null
}

/**
 * `<do action_="dbm" …>` / `<do action_="savetable" …>` (reference §7.5): a platform action the
 * gateway performs when its trigger fires; what it answers goes into the `value_` variable.
 */
export interface ActionDo {
  readonly kind: 'action'
  readonly action: 'dbm' | 'savetable'
  /** `name`, or `do{N}` with N its place among the `<do>` elements (1-based). */
  readonly name: string
  readonly trigger: ActionTrigger
  /** The declared variable of `value_="@var"`, or null. */
  readonly value: string | null
  /** Every attribute except `action_`, as written (`{@var}` substituted when the action runs). */
  readonly attrs: Readonly<Record<string, string>>
  /** The body as query text ('' when empty): the query savetable saves. */
  readonly query: string
  readonly loc: Loc
}

export type DynamicDo = EventDo | RecomputeDo | ActionDo

/** A parsed dynamic query. */
export interface DynamicApp {
  /** Declared variables and their initial values, in declaration order. */
  readonly vars: Readonly<Record<string, string>>
  /** Built-in attributes of `<dynamic>` (names ending in `_`: `mode_`, `init_`, `isolate_`, `instid_`…). */
  readonly system: Readonly<Record<string, string>>
  /** Every widget in document order. */
  readonly widgets: readonly DynamicWidget[]
  /** Every `<do>` in document order. */
  readonly dos: readonly DynamicDo[]
  /** Names of the named layouts (`name_`, or `name`), in document order. */
  readonly layouts: readonly string[]
  /** Whether a widget is named `index` (the instance then answers with it, §1.1). */
  readonly hasIndex: boolean
  /**
   * The query's `<library>` elements as text, put in front of every widget and `<do>` query so
   * their blocks can be inserted there ('' when there are none).
   */
  readonly libraries: string
  readonly loc: Loc
}
