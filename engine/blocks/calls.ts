/**
 * Blocks: registering them, expanding them in place (`<block>` outside a library, `<blocklet>`),
 * and `<insert>`, `<expand>`, `<call>`, which differ only in what the block body can see:
 * insert reads the enclosing scope, expand reads and writes it, call sees only the dynamic
 * variables.
 */
import type { Loc, XmlElement, XmlNode } from '../ast.js'
import { blockError } from './errors.js'
import type { Trail } from './errors.js'
import { BLOCK_LIMITS } from './limits.js'
import { checkVariableName } from './names.js'
import { Scope } from './scope.js'
import { attrWhere } from './walker.js'
import type { Frame, MacroHandler, Walker } from './walker.js'

type CallMode = 'insert' | 'expand' | 'call'

/** Registers a `<block name=…>` for later insertion; a later definition replaces an earlier one. */
export function registerBlock(block: XmlElement, blocks: Map<string, XmlElement>, trail: Trail | null): string {
  const name = block.attrs.name ?? ''
  if (name.trim() === '') throw blockError(block.loc, '<block> needs a name attribute', trail)
  blocks.set(name.trim().toLowerCase(), block)
  return name.trim()
}

/** `<block>` in the operation stream: registered, then expanded here with its defaults. */
export const expandBlockInPlace: MacroHandler = (el, scope, frame, out, w) => {
  registerBlock(el, w.state.blocks, frame.trail)
  runBody(el, new Scope(scope, false), new Map(), { ...frame, depth: frame.depth + 1 }, el.loc, out, w)
}

/** `<blocklet>`: an unnamed block expanded in place. */
export const expandBlocklet: MacroHandler = (el, scope, frame, out, w) => {
  runBody(el, new Scope(scope, false), new Map(), { ...frame, depth: frame.depth + 1 }, el.loc, out, w)
}

/** The handler for `<insert>`, `<expand>` or `<call>`. */
export const expandCall =
  (mode: CallMode): MacroHandler =>
  (el, scope, frame, out, w) => {
    const name = w.subst(el.attrs.block ?? '', scope, attrWhere(el, 'block', frame)).trim()
    if (name === '') throw blockError(el.loc, `<${el.name}> needs a block attribute naming the block`, frame.trail)
    const block = w.state.blocks.get(name.toLowerCase())
    if (!block) throw unknownBlock(name, el, frame, w)
    const overrides = new Map<string, string>()
    for (const attr of Object.keys(el.attrs)) {
      if (attr === 'block') continue
      checkVariableName(attr, el.loc, `<${el.name}>`, frame.trail)
      overrides.set(attr, w.subst(el.attrs[attr], scope, attrWhere(el, attr, frame)))
    }
    const parent = mode === 'call' ? w.state.root : scope
    const inner: Frame = { depth: frame.depth + 1, trail: { block: name, verb: `${mode}ed`, line: el.loc.line, outer: frame.trail } }
    runBody(block, new Scope(parent, mode === 'expand'), overrides, inner, el.loc, out, w)
  }

/**
 * Binds a block's variables (defaults, evaluated in the block's own scope, unless overridden) and
 * expands its body.
 */
function runBody(block: XmlElement, scope: Scope, overrides: ReadonlyMap<string, string>, frame: Frame, at: Loc, out: XmlNode[], w: Walker): void {
  if (frame.depth > BLOCK_LIMITS.maxDepth) {
    const name = block.attrs.name ? ` '${block.attrs.name}'` : ''
    throw blockError(at, `blocks are nested more than ${BLOCK_LIMITS.maxDepth} levels deep at block${name} (does a block insert itself?)`, frame.trail)
  }
  for (const attr of Object.keys(block.attrs)) {
    if (block.name === 'block' && attr === 'name') continue
    checkVariableName(attr, block.loc, `<${block.name}>`, frame.trail)
    scope.define(attr, overrides.get(attr) ?? w.subst(block.attrs[attr], scope, attrWhere(block, attr, frame)))
  }
  for (const [attr, value] of overrides) if (!Object.hasOwn(block.attrs, attr)) scope.define(attr, value)
  w.nodes(block.children, scope, frame, out)
}

function unknownBlock(name: string, el: XmlElement, frame: Frame, w: Walker): Error {
  const known = [...w.state.blocks.values()].map((b) => b.attrs.name)
  const list = known.length === 0 ? 'no block is defined' : `defined blocks: ${known.slice(0, 20).join(', ')}${known.length > 20 ? ', …' : ''}`
  return blockError(el.loc, `unknown block '${name}' in <${el.name} block> (${list})`, frame.trail, 'CHECK_ERROR', { block: name })
}
