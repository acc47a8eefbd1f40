import { expect } from 'chai'
import { AppError } from '../../shared/errors.js'
import type { XmlNode } from '../../engine/ast.js'
import { expandBlocks, BLOCK_LIMITS } from '../../engine/blocks/index.js'
import { parseXml } from '../../engine/parse/index.js'
import { columnsOf, makeTable, runXml } from '../helpers/engine.js'

/** A compact rendering of the expanded elements, so expectations read like XML. */
function render(node: XmlNode): string {
  if (node.kind === 'Text') return node.text
  const attrs = Object.entries(node.attrs)
    .map(([k, v]) => ` ${k}="${v}"`)
    .join('')
  const inner = node.children.map(render).join('')
  return inner === '' ? `<${node.name}${attrs}/>` : `<${node.name}${attrs}>${inner}</${node.name}>`
}

const expand = (xml: string): string => expandBlocks(parseXml(xml)).map(render).join('')

function expandError(xml: string): AppError {
  try {
    expand(xml)
  } catch (err) {
    if (err instanceof AppError) return err
    throw err
  }
  throw new Error('expected an expansion error')
}

const EXPANSIONS: readonly { name: string; xml: string; out: string }[] = [
  {
    name: '<foreach> repeats its content once per list item',
    xml: '<foreach c="a,b,c"><willbe name="n_{@c}" value="{@c}"/></foreach>',
    out: '<willbe name="n_a" value="a"/><willbe name="n_b" value="b"/><willbe name="n_c" value="c"/>',
  },
  {
    name: '<foreach dir_="reverse"> walks the list from the end, tally_ counting from 1',
    xml: '<foreach c="a,b" dir_="reverse" tally_="k"><sel value="{@c}={@k}"/></foreach>',
    out: '<sel value="b=1"/><sel value="a=2"/>',
  },
  { name: 'an empty <foreach> list runs no iteration', xml: '<foreach c=""><sel value="x"/></foreach>', out: '' },
  { name: 'a <foreach> list without commas is one item', xml: '<foreach c="only"><sel value="{@c}"/></foreach>', out: '<sel value="only"/>' },
  {
    name: 'the <foreach> list is substituted first, and items are trimmed',
    xml: '<let cols="sales, cost"><foreach c="{@cols}"><sel value="{@c}>0"/></foreach></let>',
    out: '<sel value="sales>0"/><sel value="cost>0"/>',
  },
  {
    name: 'loops nest, the inner one seeing the outer variable',
    xml: '<foreach a="x,y"><foreach b="1,2"><sel value="{@a}{@b}"/></foreach></foreach>',
    out: '<sel value="x1"/><sel value="x2"/><sel value="y1"/><sel value="y2"/>',
  },
  {
    name: '<set> inside a loop accumulates into a variable of the enclosing scope',
    xml: '<set acc=""/><foreach c="a,b,c"><set acc="{@acc}{@c}"/></foreach><sel value="{@acc}"/>',
    out: '<sel value="abc"/>',
  },
  {
    name: 'the loop variable is gone after the loop',
    xml: '<set c="outer"/><foreach c="a"><sel value="{@c}"/></foreach><sel value="{@c}"/>',
    out: '<sel value="a"/><sel value="outer"/>',
  },
  {
    name: '<for> runs from its start to to_ inclusive',
    xml: '<for i="1" to_="3"><willbe name="c{@i}" value="{@i}*10"/></for>',
    out: '<willbe name="c1" value="1*10"/><willbe name="c2" value="2*10"/><willbe name="c3" value="3*10"/>',
  },
  {
    name: '<for by_> steps down as well',
    xml: '<for i="6" to_="2" by_="-2" tally_="t"><sel value="{@i}:{@t}"/></for>',
    out: '<sel value="6:1"/><sel value="4:2"/><sel value="2:3"/>',
  },
  {
    name: '<for> with decimal steps does not drift',
    xml: '<for x="0" to_="0.3" by_="0.1"><sel value="{@x}"/></for>',
    out: '<sel value="0"/><sel value="0.1"/><sel value="0.2"/><sel value="0.3"/>',
  },
  { name: '<for> whose step moves away from to_ runs no iteration', xml: '<for i="5" to_="1"><sel value="x"/></for>', out: '' },
  {
    name: '<for> bounds may be block expressions',
    xml: '<let n="2"><for i="{@n-1}" to_="{@n*2}"><sel value="{@i}"/></for></let>',
    out: '<sel value="1"/><sel value="2"/><sel value="3"/><sel value="4"/>',
  },
  {
    name: '<set><v> may be built by a <foreach>',
    xml: '<set><greetings><foreach name="Bob,Carol">Hello, {@name}! </foreach></greetings></set><willbe name="g" value="\'{@greetings}\'"/>',
    out: `<willbe name="g" value="'Hello, Bob! Hello, Carol!'"/>`,
  },
  {
    name: '<quote> pastes its own variables into its content and leaves every other {…} as written',
    xml: '<let foo="1,2;3,4"><quote t="{@foo}"><table cols="a,b">{@t}</table><note>{@other} {1+}</note></quote></let>',
    out: '<table cols="a,b">1,2;3,4</table><note>{@other} {1+}</note>',
  },
  {
    name: '<quote> does not run block elements inside it',
    xml: '<quote v="x"><if test="{@v}"><sel value="{@v}"/></if></quote>',
    out: '<if test="x"><sel value="x"/></if>',
  },
]

const ERRORS: readonly { name: string; xml: string; parts: readonly string[] }[] = [
  {
    name: '<foreach> without a variable',
    xml: '<foreach dir_="reverse"/>',
    parts: ['<foreach> needs exactly one attribute naming its loop variable (found none)'],
  },
  { name: '<foreach> with two variables', xml: '<foreach a="1" b="2"/>', parts: ['(found a, b)'] },
  { name: 'an unknown <foreach> control', xml: '<foreach a="1" step_="2"/>', parts: ['<foreach> has no attribute step_', 'dir_, tally_'] },
  { name: 'a bad dir_', xml: '<foreach a="1" dir_="up"/>', parts: ['<foreach dir_> must be forward or reverse'] },
  { name: 'a bad tally_ name', xml: '<foreach a="1" tally_="N"><sel value="x"/></foreach>', parts: ["'N' in <foreach tally_> is not a valid variable name"] },
  { name: '<for> without to_', xml: '<for i="1"/>', parts: ['<for> needs a to_ attribute'] },
  { name: '<for> with a text start', xml: '<for i="a" to_="2"/>', parts: ["<for i> must be a number, not 'a'"] },
  { name: '<for by_="0">', xml: '<for i="1" to_="2" by_="0"/>', parts: ['<for by_> must not be 0'] },
  { name: 'a <for> too long to run', xml: '<for i="1" to_="1e12"/>', parts: [`a loop may run at most ${BLOCK_LIMITS.maxLoopIterations} times`] },
  {
    name: 'nested loops whose product is too large, even with an empty body',
    xml: '<for a="1" to_="1000"><for b="1" to_="1000"/></for>',
    parts: [`more than ${BLOCK_LIMITS.maxSteps} steps`],
  },
  { name: 'a <quote> attribute that is not a variable name', xml: '<quote a-b="1"/>', parts: ["'a-b' in <quote> is not a valid variable name"] },
]

describe('block loops and <quote>', () => {
  for (const c of EXPANSIONS) it(`expands so that ${c.name}`, () => expect(expand(c.xml)).to.equal(c.out))

  describe('errors', function () {
    this.timeout(10_000)
    for (const c of ERRORS) {
      it(`refuses ${c.name}`, () => {
        const err = expandError(c.xml)
        expect(err.code).to.equal('CHECK_ERROR')
        expect(err.message).to.match(/^Line 1, column \d+: /)
        for (const part of c.parts) expect(err.message).to.include(part)
      })
    }
  })

  it('runs the documented <foreach> example: a block adding one average per listed column to a <tabu>', () => {
    // 1010data Reference Manual, <foreach>: block quickavg makes <tcol source="{@col}" name="{@col}" fun="avg"/> for each of cols.
    const xml = `<library><block name="quickavg" cols="">
        <tabu breaks="store"><foreach col="{@cols}"><tcol source="{@col}" name="{@col}" fun="avg"/></foreach></tabu>
      </block></library>
      <base table="t"/><insert block="quickavg" cols="sales,cost"/>`
    const t = makeTable('t', [
      { name: 'store', type: 'int', values: [1, 1, 2] },
      { name: 'sales', type: 'float', values: [10, 20, 5] },
      { name: 'cost', type: 'float', values: [4, 6, 1] },
    ])
    expect(columnsOf(runXml(xml, [t]))).to.deep.equal({ store: [1, 2], sales: [15, 5], cost: [5, 1] })
  })
})
