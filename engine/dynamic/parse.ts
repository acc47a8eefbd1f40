/**
 * Query text → DynamicApp. The `<dynamic>` is found at the top level of the query (through a
 * `<macro>` wrapper); its attributes declare the variables, and its content — widgets, layouts,
 * `<do>` blocks, libraries and notes, layouts nesting — is read in document order.
 */
import type { Loc, XmlElement, XmlNode } from '../ast.js'
import { parseXml } from '../parse/index.js'
import { readDo } from './dos.js'
import { dynamicError } from './errors.js'
import type { DynamicApp, DynamicDo, DynamicWidget } from './model.js'
import { COUNT_VAR, isSystemName, mentions, VARIABLE_NAME } from './names.js'
import { toXml } from './serialize.js'
import { topLevel } from './top-level.js'
import { readWidget } from './widgets.js'

/**
 * Parses a dynamic query.
 * @returns null when the query has no top-level `<dynamic>` (it is then an ordinary query)
 * @throws AppError PARSE_ERROR for malformed XML; CHECK_ERROR (with `{ line, col }`) for a bad
 *   variable name, a binding or `<set>` of an undeclared variable, a `<do>` without a trigger,
 *   duplicate widget names, more than one `<dynamic>`, or content a `<dynamic>` cannot hold
 */
export function parseDynamic(xml: string): DynamicApp | null {
  const top = topLevel(parseXml(xml))
  const dynamics = top.filter((el) => el.name === 'dynamic')
  if (dynamics.length === 0) return null
  if (dynamics.length > 1) {
    const first = dynamics[0].loc
    throw dynamicError(dynamics[1].loc, `a query holds one <dynamic>, and one already starts at line ${first.line}, column ${first.col}`)
  }
  return readDynamic(
    dynamics[0],
    top.filter((el) => el.name === 'library'),
  )
}

/** What the walk over the `<dynamic>`'s content collects, before widgets are named. */
interface Content {
  readonly widgets: XmlElement[]
  readonly dos: XmlElement[]
  readonly layouts: string[]
  readonly libraries: XmlElement[]
}

function readDynamic(el: XmlElement, outerLibraries: readonly XmlElement[]): DynamicApp {
  const vars: Record<string, string> = {}
  const system: Record<string, string> = {}
  for (const [name, value] of Object.entries(el.attrs)) {
    if (isSystemName(name)) system[name] = value
    else vars[checkDeclaration(name, el.loc)] = value
  }
  const content: Content = { widgets: [], dos: [], layouts: [], libraries: [...outerLibraries] }
  walk(el.children, content, '<dynamic>')
  const declared: ReadonlySet<string> = new Set(Object.keys(vars))
  const libraries = toXml(content.libraries)
  const widgets = nameWidgets(content.widgets, declared, mentions(libraries))
  const dos: DynamicDo[] = content.dos.map((d, i) => readDo(d, declared, i + 1))
  return { vars, system, widgets, dos, layouts: content.layouts, hasIndex: widgets.some((w) => w.name === 'index'), libraries, loc: el.loc }
}

function checkDeclaration(name: string, loc: Loc): string {
  if (!VARIABLE_NAME.test(name)) {
    throw dynamicError(
      loc,
      `'${name}' on <dynamic> is not a valid variable name: use a lower-case letter, then lower-case letters, digits or '_' (names ending in '_' are built-in attributes)`,
    )
  }
  if (name === COUNT_VAR) throw dynamicError(loc, `'${COUNT_VAR}' on <dynamic>: the name is reserved for the instance number @${COUNT_VAR}`)
  return name
}

/** Collects widgets, dos, layout names and libraries; `where` names the container for messages. */
function walk(nodes: readonly XmlNode[], out: Content, where: string): void {
  for (const node of nodes) {
    if (node.kind === 'Text') {
      throw dynamicError(node.loc, `text '${node.text.trim().slice(0, 40)}' directly inside ${where}: put text in a <widget class_="text" text_="…"/>`)
    }
    switch (node.name) {
      case 'widget':
        out.widgets.push(node)
        break
      case 'do':
        out.dos.push(node)
        break
      case 'library':
        out.libraries.push(node)
        break
      case 'note':
        break
      case 'layout':
        readLayout(node, out)
        break
      default:
        throw dynamicError(
          node.loc,
          `<${node.name}> cannot appear directly inside ${where}: it holds <widget>, <layout>, <do>, <library> and <note> elements (a query belongs inside a <widget> or a <do>)`,
        )
    }
  }
}

function readLayout(el: XmlElement, out: Content): void {
  const name = (el.attrs.name_ ?? el.attrs.name ?? '').trim()
  if (name !== '') out.layouts.push(name)
  const before = out.widgets.length
  walk(el.children, out, '<layout>')
  if (out.widgets.length === before) throw dynamicError(el.loc, '<layout> holds no widget: a layout must contain at least one <widget>')
}

/** Reads the widgets, giving unnamed ones `w1`, `w2`… (skipping names already taken). */
function nameWidgets(elements: readonly XmlElement[], declared: ReadonlySet<string>, libraryUses: readonly string[]): DynamicWidget[] {
  const taken = new Map<string, Loc>()
  for (const el of elements) {
    const name = el.attrs.name?.trim()
    if (name === undefined) continue
    if (name === '') throw dynamicError(el.loc, '<widget name=""> is empty: give the widget a name, or leave name out')
    const seen = taken.get(name)
    if (seen) throw dynamicError(el.loc, `a widget named '${name}' already exists (line ${seen.line}, column ${seen.col}): widget names must be unique`)
    taken.set(name, el.loc)
  }
  let next = 1
  return elements.map((el) => {
    const name = el.attrs.name?.trim()
    if (name !== undefined) return readWidget(el, name, true, declared, libraryUses)
    while (taken.has(`w${next}`)) next++
    const generated = `w${next++}`
    return readWidget(el, generated, false, declared, libraryUses)
  })
}
