import { expect } from 'chai'
import type { XmlNode } from '../../engine/ast.js'
import { toXml } from '../../engine/dynamic/index.js'
import { parseXml } from '../../engine/parse/index.js'

/** A tree without locations, for comparing trees read from different texts. */
function strip(node: XmlNode): unknown {
  if (node.kind === 'Text') return { text: node.text }
  return { name: node.name, attrs: Object.entries(node.attrs), children: node.children.map(strip) }
}

const tree = (xml: string): unknown => parseXml(xml).children.map(strip)

/** Queries whose tree must survive parseXml → toXml → parseXml. */
const ROUND_TRIPS: readonly { name: string; xml: string }[] = [
  { name: 'an empty element', xml: '<base table="pub.demo.retail.item"/>' },
  {
    name: 'nested elements with several attributes in order',
    xml: '<tabu label="T" breaks="a,b"><tcol source="x" fun="sum" name="s"/><tcol fun="cnt"/></tabu>',
  },
  { name: 'operators and quotes in attribute values', xml: `<sel value="a&lt;=8 &amp; b&gt;2 | c='x&quot;y'"/>` },
  { name: 'raw < > & in a value, as the lenient reader accepts them', xml: `<sel value="a<=8 & b>2"/>` },
  { name: 'tabs, line breaks and carriage returns in a value', xml: '<willbe name="t" label="a&#9;b&#10;c&#13;d"/>' },
  { name: 'text with markup characters and a CDATA section', xml: '<note>a &lt; b &amp;&amp; c &gt; d</note><note><![CDATA[x <y> & ]]]></note>' },
  { name: 'text with a carriage return and surrounding spaces', xml: '<note>  line1&#13;\nline2  </note>' },
  { name: 'braces and @ kept for substitution later', xml: `<sel value="dept={@selection} and {if(@n>1;'a';'b')}"/>` },
  { name: 'non-ASCII text and attribute values', xml: '<note label="café ☕">naïve – 𝄞</note>' },
  {
    name: 'a whole dynamic query with layouts, widgets and dos',
    xml: `<macro><dynamic x="1" mode_="auto"><layout arrange_="v"><widget name="index" class_="grid"><base table="t"/><sel value="a={@x}"/></widget></layout><do on_="change(x)"><set y="@x*2"/></do></dynamic></macro>`,
  },
]

describe('engine/dynamic: toXml', () => {
  for (const c of ROUND_TRIPS) {
    it(`round-trips ${c.name}`, () => {
      const nodes = parseXml(c.xml).children
      expect(tree(toXml(nodes))).to.deep.equal(tree(c.xml))
    })
  }

  it('writes an element without content as an empty-element tag', () => {
    expect(toXml(parseXml('<a x="1"></a>').children)).to.equal('<a x="1"/>')
  })

  it('escapes &, <, >, " and whitespace controls in attribute values', () => {
    const text = toXml([{ kind: 'Element', name: 'a', attrs: { v: `<&>"'\t\n\r` }, children: [], loc: { line: 1, col: 1 } }])
    expect(text).to.equal(`<a v="&lt;&amp;&gt;&quot;'&#9;&#10;&#13;"/>`)
  })

  it('escapes &, <, > and carriage returns in text, so ]]> can never appear', () => {
    const text = toXml([{ kind: 'Text', text: 'a]]>b & <c>\r', loc: { line: 1, col: 1 } }])
    expect(text).to.equal('a]]&gt;b &amp; &lt;c&gt;&#13;')
  })

  it('writes nothing for no nodes', () => {
    expect(toXml([])).to.equal('')
  })
})
