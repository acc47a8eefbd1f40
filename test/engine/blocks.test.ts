import { expect } from 'chai'
import { AppError } from '../../shared/errors.js'
import type { XmlNode } from '../../engine/ast.js'
import { expandBlocks, BLOCK_LIMITS } from '../../engine/blocks/index.js'
import { parseXml } from '../../engine/parse/index.js'

type Vars = Readonly<Record<string, string>>

/** A compact, unescaped rendering of the expanded elements, so expectations read like XML. */
function render(node: XmlNode): string {
  if (node.kind === 'Text') return node.text
  const attrs = Object.entries(node.attrs)
    .map(([k, v]) => ` ${k}="${v}"`)
    .join('')
  const inner = node.children.map(render).join('')
  return inner === '' ? `<${node.name}${attrs}/>` : `<${node.name}${attrs}>${inner}</${node.name}>`
}

const expand = (xml: string, vars: Vars = {}): string => expandBlocks(parseXml(xml), vars).map(render).join('')

function expandError(xml: string, vars: Vars = {}): AppError {
  try {
    expand(xml, vars)
  } catch (err) {
    if (err instanceof AppError) return err
    throw err
  }
  throw new Error('expected an expansion error')
}

const REGION_LIBRARY = `<library><block name="regionPick" region="'E'"><sel value="region={@region}"/></block></library>`

/** The examples of reference §2.13 (and §9) whose expansion is stated there. */
const REFERENCE: readonly { name: string; xml: string; vars?: Vars; out: string }[] = [
  {
    name: 'a <block> in the operation stream expands in place with its defaults (§2.13.1)',
    xml: `<block name="pick" col="region" value="'E'"><sel value="{@col}={@value}"/></block>`,
    out: `<sel value="region='E'"/>`,
  },
  {
    name: 'an <insert> attribute overrides the block default (§2.13.4)',
    xml: `${REGION_LIBRARY}<insert block="regionPick" region="'W'"/>`,
    out: `<sel value="region='W'"/>`,
  },
  { name: 'an <insert> without overrides uses the default', xml: `${REGION_LIBRARY}<insert block="regionPick"/>`, out: `<sel value="region='E'"/>` },
  { name: 'a <library> block does not run where it is defined (§2.13.5)', xml: REGION_LIBRARY, out: '' },
  { name: '<let> binds variables for its children (§2.13.3)', xml: '<let c="qty" v="10"><sel value="{@c}>={@v}"/></let>', out: '<sel value="qty>=10"/>' },
  {
    name: '{qv(@search_string)} quotes the value as a text literal (§9)',
    xml: '<let search_string="STRAWBE"><sel value="(contains(description;{qv(@search_string)}))"/></let>',
    out: `<sel value="(contains(description;'STRAWBE'))"/>`,
  },
  {
    name: 'nested braces: the inner {@tbl} is pasted into the endswith test first (§2.13.7)',
    xml: `<if test="{endswith('{@tbl}';'monthly' 'weekly')=1}"><then><sel value="g_cumcnt(ticker;;)<=6"/></then></if>`,
    vars: { tbl: 'pub.fin.weekly' },
    out: '<sel value="g_cumcnt(ticker;;)<=6"/>',
  },
  {
    name: 'nested braces with a false test keep nothing',
    xml: `<if test="{endswith('{@tbl}';'monthly' 'weekly')=1}"><then><sel value="x"/></then></if>`,
    vars: { tbl: 'pub.fin.daily' },
    out: '',
  },
  {
    name: 'the <blocklet>/<set> example builds table text with an <if> inside (include=1)',
    xml: '<blocklet include="1"><set><foo>\n  a,b,c;\n  <if test="{@include}">1,2,3;</if>\n</foo></set><table cols="a,b,c">{@foo}</table></blocklet>',
    out: '<table cols="a,b,c">a,b,c;\n  1,2,3;</table>',
  },
  {
    name: 'the <blocklet>/<set> example leaves the <if> content out when include=0',
    xml: '<blocklet include="0"><set><foo>\n  a,b,c;\n  <if test="{@include}">1,2,3;</if>\n</foo></set><table cols="a,b,c">{@foo}</table></blocklet>',
    out: '<table cols="a,b,c">a,b,c;</table>',
  },
  {
    name: '{str_to_lst(…)} inserts a list as space-separated values',
    xml: `<let paths="a.b, c.d,e.f"><sel value="p={qv(str_to_lst(@paths;','))}"/></let>`,
    out: `<sel value="p='a.b' 'c.d' 'e.f'"/>`,
  },
  {
    name: '<base table="{@tbl}"/> takes the table from a variable (§2.1)',
    xml: '<base table="{@tbl}"/>',
    vars: { tbl: 'pub.demo.retail.item' },
    out: '<base table="pub.demo.retail.item"/>',
  },
]

const SCOPING: readonly { name: string; xml: string; vars?: Vars; out: string }[] = [
  {
    name: 'a <let> binding shadows an outer one only inside the <let>',
    xml: '<let a="1"><let a="2"><sel value="{@a}"/></let><sel value="{@a}"/></let>',
    out: '<sel value="2"/><sel value="1"/>',
  },
  { name: 'each <let> value sees the bindings before it', xml: '<let a="x" b="{@a}y"><sel value="{@b}"/></let>', out: '<sel value="xy"/>' },
  { name: 'the dynamic variables form the outermost scope', xml: '<sel value="{@a}={@b}"/>', vars: { a: 'k', b: '3' }, out: '<sel value="k=3"/>' },
  {
    name: 'a <let> shadows a dynamic variable',
    xml: '<let a="inner"><sel value="{@a}"/></let><sel value="{@a}"/>',
    vars: { a: 'outer' },
    out: '<sel value="inner"/><sel value="outer"/>',
  },
  {
    name: 'an inserted block reads the enclosing scope',
    xml: '<library><block name="b"><sel value="{@col}=1"/></block></library><let col="qty"><insert block="b"/></let>',
    out: '<sel value="qty=1"/>',
  },
  {
    name: 'an inserted block cannot change the enclosing variables with <set>',
    xml: '<library><block name="b"><set v="changed"/><sel value="{@v}"/></block></library><let v="orig"><insert block="b"/><sel value="{@v}"/></let>',
    out: '<sel value="changed"/><sel value="orig"/>',
  },
  {
    name: 'an expanded block changes the enclosing variables with <set>',
    xml: '<library><block name="b"><set v="changed"/></block></library><set v="orig"/><expand block="b"/><sel value="{@v}"/>',
    out: '<sel value="changed"/>',
  },
  {
    name: "an expanded block's own parameters stay local",
    xml: '<library><block name="b" p="1"><set p="2"/></block></library><set p="outer"/><expand block="b"/><sel value="{@p}"/>',
    out: '<sel value="outer"/>',
  },
  {
    name: 'a called block reads the dynamic variables',
    xml: '<library><block name="b"><sel value="{@tbl}"/></block></library><call block="b"/>',
    vars: { tbl: 't1' },
    out: '<sel value="t1"/>',
  },
  {
    name: 'insert overrides are evaluated in the calling scope',
    xml: '<library><block name="b" x=""><sel value="{@x}"/></block></library><let y="7"><insert block="b" x="{@y}+1"/></let>',
    out: '<sel value="7+1"/>',
  },
  {
    name: 'a block default may use an earlier parameter',
    xml: '<library><block name="b" a="1" c="{@a}0"><sel value="{@c}"/></block></library><insert block="b" a="4"/>',
    out: '<sel value="40"/>',
  },
  {
    name: 'an override for a variable the block does not declare is bound too',
    xml: '<library><block name="b"><sel value="{@extra}"/></block></library><insert block="b" extra="e"/>',
    out: '<sel value="e"/>',
  },
  { name: 'a top-level <set> (attribute form) assigns for what follows', xml: '<set a="1" b="{@a}2"/><sel value="{@b}"/>', out: '<sel value="12"/>' },
  {
    name: 'a <set> inside a <let> of a top-level variable changes it',
    xml: '<set a="1"/><let b="2"><set a="3"/></let><sel value="{@a}"/>',
    out: '<sel value="3"/>',
  },
  {
    name: 'a <set> of a <let> variable stays inside the <let>',
    xml: '<set a="out"/><let a="in"><set a="changed"/><sel value="{@a}"/></let><sel value="{@a}"/>',
    out: '<sel value="changed"/><sel value="out"/>',
  },
  {
    name: 'a <set> in element-content form trims the text',
    xml: '<set><cols>\n   a, b \n</cols></set><colord cols="{@cols}"/>',
    out: '<colord cols="a, b"/>',
  },
  {
    name: 'a variable value holding braces is not evaluated again',
    xml: '<sel value="{@v}"/>',
    vars: { v: '{@nope}' },
    out: '<sel value="{@nope}"/>',
  },
  {
    name: 'an insert before its top-level <library> finds the block',
    xml: `<insert block="regionPick" region="'N'"/>${REGION_LIBRARY}`,
    out: `<sel value="region='N'"/>`,
  },
  { name: 'block names match case-insensitively', xml: `${REGION_LIBRARY}<insert block="REGIONPICK"/>`, out: `<sel value="region='E'"/>` },
  {
    name: 'a block name may itself be substituted',
    xml: `${REGION_LIBRARY}<let which="regionPick"><insert block="{@which}"/></let>`,
    out: `<sel value="region='E'"/>`,
  },
  {
    name: 'a block defined in place can be inserted again later',
    xml: '<block name="b" v="1"><sel value="{@v}"/></block><insert block="b" v="2"/>',
    out: '<sel value="1"/><sel value="2"/>',
  },
  { name: 'a <blocklet> binds its attributes for its content', xml: '<blocklet n="5"><sel value="x>{@n}"/></blocklet>', out: '<sel value="x>5"/>' },
]

const CONTROL: readonly { name: string; xml: string; vars?: Vars; out: string }[] = [
  {
    name: '<if> with <then> and <else> keeps <then> when true',
    xml: '<if test="1"><then><sel value="a"/></then><else><sel value="b"/></else></if>',
    out: '<sel value="a"/>',
  },
  {
    name: '<if> with <then> and <else> keeps <else> when false',
    xml: '<if test="0"><then><sel value="a"/></then><else><sel value="b"/></else></if>',
    out: '<sel value="b"/>',
  },
  { name: '<if> with only <then> keeps nothing when false', xml: '<if test="0"><then><sel value="a"/></then></if>', out: '' },
  {
    name: '<if> with content directly inside keeps it when true',
    xml: '<if test="{@on}"><sel value="a"/><sel value="b"/></if>',
    vars: { on: '1' },
    out: '<sel value="a"/><sel value="b"/>',
  },
  { name: '<if> with content directly inside drops it when false', xml: '<if test="{@on}"><sel value="a"/></if>', vars: { on: '0' }, out: '' },
  { name: 'an empty test is false', xml: '<if test="{@on}"><sel value="a"/></if>', vars: { on: '' }, out: '' },
  { name: 'any non-zero number is true', xml: '<if test="-2.5"><sel value="a"/></if>', out: '<sel value="a"/>' },
  {
    name: 'a test after substitution is evaluated as a block expression',
    xml: '<if test="{@n}>3"><sel value="a"/></if>',
    vars: { n: '4' },
    out: '<sel value="a"/>',
  },
  { name: 'a test may compare texts', xml: `<if test="'{@mode}'='fast'"><sel value="a"/></if>`, vars: { mode: 'fast' }, out: '<sel value="a"/>' },
  {
    name: '<note> is dropped at any depth',
    xml: '<note>x</note><link table2="t" col="a"><note>why</note><sel value="b"/></link>',
    out: '<link table2="t" col="a"><sel value="b"/></link>',
  },
  {
    name: '<macro> and <query> wrappers are unwrapped',
    xml: '<macro><query><base table="t"/></query><sel value="a"/></macro>',
    out: '<base table="t"/><sel value="a"/>',
  },
  {
    name: 'elements nested in data operations are expanded too',
    xml: '<let s="sales" f="sum"><tabu breaks="{@s}"><tcol source="{@s}" fun="{@f}"/><if test="1"><tcol fun="cnt"/></if></tabu></let>',
    out: '<tabu breaks="sales"><tcol source="sales" fun="sum"/><tcol fun="cnt"/></tabu>',
  },
  {
    name: 'text content of data elements is substituted',
    xml: '<let r="1,2;3,4"><table cols="a,b">{@r};5,6</table></let>',
    out: '<table cols="a,b">1,2;3,4;5,6</table>',
  },
  {
    name: '<dynamic>, <widget>, <do> and <layout> pass through untouched',
    xml: '<dynamic a="{@x}"><widget v="{@y}"/></dynamic><do action_="x"/><layout/>',
    out: '<dynamic a="{@x}"><widget v="{@y}"/></dynamic><do action_="x"/><layout/>',
  },
  {
    name: 'unknown attributes are substituted and kept',
    xml: '<sel value="a" trs_timeline_="{@t}"/>',
    vars: { t: '1' },
    out: '<sel value="a" trs_timeline_="1"/>',
  },
  { name: 'a literal } with no { is kept', xml: '<note2 x="a}b"/>', out: '<note2 x="a}b"/>' },
  {
    name: 'numbers are inserted in their shortest form',
    xml: '<sel value="{@n*2} {1/4} {10/2} {0-0}"/>',
    vars: { n: '2.5' },
    out: '<sel value="5 0.25 5 0"/>',
  },
]

const ERRORS: readonly { name: string; xml: string; vars?: Vars; code?: string; line: number; parts: string[] }[] = [
  {
    name: 'an unknown variable, naming it and the attribute',
    xml: '<base table="t"/>\n<sel value="x={@nope}"/>',
    line: 2,
    parts: ['unknown variable @nope', '<sel value>'],
  },
  { name: 'a <let> variable used after the <let>', xml: '<let a="1"><sel value="{@a}"/></let>\n<sel value="{@a}"/>', line: 2, parts: ['unknown variable @a'] },
  {
    name: 'a called block reading the enclosing scope',
    xml: '<library><block name="b">\n<sel value="{@col}"/></block></library>\n<let col="q">\n<call block="b"/></let>',
    line: 2,
    parts: ['unknown variable @col', "(in block 'b', called at line 4)"],
  },
  {
    name: 'an unknown block, with the blocks that exist',
    xml: `${REGION_LIBRARY}\n<insert block="nope"/>`,
    line: 2,
    parts: ["unknown block 'nope'", 'defined blocks: regionPick'],
  },
  { name: 'an <insert> with no block attribute', xml: '<insert/>', line: 1, parts: ['<insert> needs a block attribute'] },
  { name: 'a <block> without a name', xml: '<library><block><sel value="a"/></block></library>', line: 1, parts: ['<block> needs a name attribute'] },
  {
    name: 'a block that inserts itself',
    xml: '<library><block name="loop"><insert block="loop"/></block></library><insert block="loop"/>',
    line: 1,
    parts: [`more than ${BLOCK_LIMITS.maxDepth} levels deep`, "'loop'"],
  },
  {
    name: 'an expansion that doubles at every level',
    xml:
      '<library>' +
      Array.from({ length: 20 }, (_, i) => `<block name="b${i}"><insert block="b${i + 1}"/><insert block="b${i + 1}"/></block>`).join('') +
      '<block name="b20"><sel value="x"/></block></library><insert block="b0"/>',
    line: 1,
    parts: [`more than ${BLOCK_LIMITS.maxElements} elements`],
  },
  {
    name: 'an expansion that doubles without producing anything',
    xml:
      '<library>' +
      Array.from({ length: 25 }, (_, i) => `<block name="b${i}"><insert block="b${i + 1}"/><insert block="b${i + 1}"/></block>`).join('') +
      '<block name="b25"/></library><insert block="b0"/>',
    line: 1,
    parts: [`more than ${BLOCK_LIMITS.maxSteps} steps`],
  },
  {
    name: 'a variable doubled until it is too long',
    xml: '<set a="xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"/>' + '<set a="{@a}{@a}"/>'.repeat(20),
    line: 1,
    parts: ['more than 1000000 characters'],
  },
  { name: '<import>', xml: '<import path="pub.lib"/>', line: 1, parts: ['<import> is not supported', 'library store', 'put the <library>'] },
  { name: '<loop>', xml: '\n<loop with_="x"/>', line: 2, parts: ['<loop> is not supported', 'platform actions', 'use <foreach> or <for>'] },
  { name: '<then> outside <if>', xml: '<then><sel value="a"/></then>', line: 1, parts: ['<then> is only allowed directly inside <if>'] },
  { name: '<if> with content beside <then>', xml: '<if test="1"><then/>\n<sel value="a"/></if>', line: 2, parts: ['all its content must be inside them'] },
  { name: '<if> with two <else>', xml: '<if test="1"><else/><else/></if>', line: 1, parts: ['one <then> and one <else>'] },
  { name: '<if> without a test', xml: '<if><sel value="a"/></if>', line: 1, parts: ['<if> needs a test attribute'] },
  {
    name: '<if> whose test is neither true nor false',
    xml: '<if test="{@v}"><sel value="a"/></if>',
    vars: { v: 'maybe' },
    line: 1,
    parts: ["'maybe' is not a variable", '<if test>'],
  },
  { name: "a variable name starting with '_'", xml: '<let _a="1"/>', line: 1, parts: ["'_a' in <let> is not a valid variable name"] },
  { name: 'a <set> child with an invalid variable name', xml: '<set><a-b>1</a-b></set>', line: 1, parts: ["'a-b' in <set> is not a valid variable name"] },
  { name: 'text directly inside <set>', xml: '<set>\n  loose</set>', line: 2, parts: ['text directly inside <set>'] },
  { name: 'an operation inside <set><foo>', xml: '<set><foo><sel value="a"/></foo></set>', line: 1, parts: ['<sel> cannot appear inside <set><foo>'] },
  {
    name: 'an element other than <block> in a <library>',
    xml: '<library><sel value="a"/></library>',
    line: 1,
    parts: ['<library> may only contain <block> elements'],
  },
  { name: 'an unclosed {', xml: '<sel value="a={@x"/>', vars: { x: '1' }, line: 1, parts: ["'{' at position 3 of <sel value> is never closed"] },
  { name: 'an empty {}', xml: '<sel value="a={}"/>', line: 1, parts: ['empty {} in <sel value>'] },
  {
    name: 'a syntax error in a block expression',
    xml: '\n<sel value="{1+}"/>',
    code: 'EXPR_ERROR',
    line: 2,
    parts: ['<sel value>: block expression {1+}', 'column'],
  },
  { name: 'a package variable', xml: '<sel value="{str_to_lst(@t.paths;\',\')}"/>', line: 1, parts: ['package variables (@name.field) are not supported'] },
  { name: 'text between operations', xml: '<base table="t"/>\n  stray words', line: 2, parts: ["unexpected text 'stray words' between operations"] },
  {
    name: 'an error inside nested insertions, with the whole trail',
    xml: '<library><block name="inner"><sel value="{@zz}"/></block><block name="outer">\n<insert block="inner"/></block></library>\n\n<insert block="outer"/>',
    line: 1,
    parts: ["(in block 'inner', inserted at line 2) (in block 'outer', inserted at line 4)"],
  },
]

describe('expandBlocks()', () => {
  describe('reference examples', () => {
    for (const c of REFERENCE) it(`expands: ${c.name}`, () => expect(expand(c.xml, c.vars)).to.equal(c.out))
  })

  describe('scopes and variables', () => {
    for (const c of SCOPING) it(`expands so that ${c.name}`, () => expect(expand(c.xml, c.vars)).to.equal(c.out))
  })

  describe('conditionals, wrappers and pass-through', () => {
    for (const c of CONTROL) it(`expands so that ${c.name}`, () => expect(expand(c.xml, c.vars)).to.equal(c.out))
  })

  describe('errors', function () {
    // The limit cases run an expansion up to its cap, which takes a moment on a slow machine.
    this.timeout(10_000)
    for (const c of ERRORS) {
      it(`refuses ${c.name}`, () => {
        const err = expandError(c.xml, c.vars)
        expect(err.code).to.equal(c.code ?? 'CHECK_ERROR')
        expect(err.detail).to.include({ line: c.line })
        expect(err.message).to.match(new RegExp(`^Line ${c.line}, column \\d+: `))
        for (const part of c.parts) expect(err.message).to.include(part)
      })
    }
  })

  it('keeps the source location of every expanded element', () => {
    const [a, b] = expandBlocks(parseXml('<library><block name="b">\n  <sel value="{@v}"/></block></library>\n<insert block="b" v="1"/><base table="t"/>'))
    expect(a.loc).to.deep.equal({ line: 2, col: 3 })
    expect(b.loc).to.deep.equal({ line: 3, col: 26 })
  })

  it('does not modify the variables passed in', () => {
    const vars = { a: '1' }
    expand('<set a="2"/><sel value="{@a}"/>', vars)
    expect(vars).to.deep.equal({ a: '1' })
  })

  it('passes a <dynamic> element through as the very same object', () => {
    const root = parseXml('<dynamic><x/></dynamic>')
    expect(expandBlocks(root)[0]).to.equal(root.children[0])
  })
})
