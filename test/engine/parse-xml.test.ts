import { expect } from 'chai'
import { AppError } from '../../shared/errors.js'
import type { XmlElement, XmlNode } from '../../engine/ast.js'
import { parseXml, MAX_XML_DEPTH } from '../../engine/parse/index.js'

/** A compact, unescaped rendering of a node, so expected trees read like the input. */
function render(node: XmlNode): string {
  if (node.kind === 'Text') return `[${node.text}]`
  const attrs = Object.entries(node.attrs)
    .map(([k, v]) => ` ${k}="${v}"`)
    .join('')
  const inner = node.children.map(render).join('')
  return inner === '' ? `<${node.name}${attrs}/>` : `<${node.name}${attrs}>${inner}</${node.name}>`
}

const top = (xml: string): string => parseXml(xml).children.map(render).join('')

function parseError(xml: string): AppError {
  try {
    parseXml(xml)
  } catch (err) {
    if (err instanceof AppError) return err
    throw err
  }
  throw new Error('expected a parse error')
}

function nested(depth: number): string {
  return '<a>'.repeat(depth) + '</a>'.repeat(depth)
}

const ACCEPTED: readonly { name: string; xml: string; tree: string }[] = [
  { name: 'a single self-closing element', xml: '<sel value="x=1"/>', tree: '<sel value="x=1"/>' },
  {
    name: 'a fragment of several top-level elements in order',
    xml: '<base table="t"/>\n<sel value="a=1"/>\n<willbe name="b" value="a+1"/>',
    tree: '<base table="t"/><sel value="a=1"/><willbe name="b" value="a+1"/>',
  },
  { name: 'a <macro> wrapper, kept as an element', xml: '<macro><base table="t"/></macro>', tree: '<macro><base table="t"/></macro>' },
  { name: 'a <query> wrapper, kept as an element', xml: '<query><base table="t"/></query>', tree: '<query><base table="t"/></query>' },
  { name: 'a raw <= inside an attribute value', xml: '<sel value="g_cumcnt(ticker;;)<=8"/>', tree: '<sel value="g_cumcnt(ticker;;)<=8"/>' },
  { name: 'a raw < and > inside an attribute value', xml: '<sel value="a<b | c>d"/>', tree: '<sel value="a<b | c>d"/>' },
  {
    name: 'a raw & used as logical and',
    xml: `<sel value="(~beginswith_ci(posdesc;'CRV')) & (~contains_ci(posdesc;' fee '))"/>`,
    tree: `<sel value="(~beginswith_ci(posdesc;'CRV')) & (~contains_ci(posdesc;' fee '))"/>`,
  },
  { name: 'an escaped &amp; like a raw one', xml: '<sel value="a=1 &amp; b=2"/>', tree: '<sel value="a=1 & b=2"/>' },
  { name: 'the five standard entities in an attribute', xml: '<sel value="&lt;&gt;&amp;&quot;&apos;"/>', tree: `<sel value="<>&"'"/>` },
  { name: 'decimal and hexadecimal character references', xml: '<note t="&#65;&#x42;&#X43;"/>', tree: '<note t="AB&#X43;"/>' },
  { name: 'an unknown named entity, kept literally', xml: '<a x="&nbsp;"/>', tree: '<a x="&nbsp;"/>' },
  { name: 'an ampersand followed by a name without a semicolon', xml: '<a x="a &b c"/>', tree: '<a x="a &b c"/>' },
  { name: 'a multi-line attribute value, newlines kept', xml: '<sel value="a=1\n    &amp; b=2"/>', tree: '<sel value="a=1\n    & b=2"/>' },
  { name: 'a single-quoted attribute value holding double quotes', xml: `<a x='say "hi"'/>`, tree: '<a x="say "hi""/>' },
  { name: 'a double-quoted attribute value holding single quotes', xml: `<sel value="s='NY' 'CA'"/>`, tree: `<sel value="s='NY' 'CA'"/>` },
  { name: 'comments at the top level, dropped', xml: '<!-- first -->\n<base table="t"/>\n<!-- last -->', tree: '<base table="t"/>' },
  { name: 'a comment inside an element, dropped', xml: '<tabu><!-- c --><tcol fun="cnt"/></tabu>', tree: '<tabu><tcol fun="cnt"/></tabu>' },
  { name: 'a comment holding markup and raw characters', xml: '<!-- <sel value="a<b"/> & more -->', tree: '' },
  { name: 'text around a comment, joined into one text node', xml: '<table>a,1;<!-- x -->b,2</table>', tree: '<table>[a,1;b,2]</table>' },
  { name: 'a CDATA section, as text', xml: '<table><![CDATA[a,1;b,2]]></table>', tree: '<table>[a,1;b,2]</table>' },
  { name: 'a CDATA section holding raw < and &', xml: '<note><![CDATA[a<b & c]]></note>', tree: '<note>[a<b & c]</note>' },
  { name: 'an XML declaration, dropped', xml: '<?xml version="1.0"?>\n<base table="t"/>', tree: '<base table="t"/>' },
  { name: 'a processing instruction inside an element, dropped', xml: '<a><?pi data?><b/></a>', tree: '<a><b/></a>' },
  {
    name: 'element and attribute names, lower-cased',
    xml: '<SEL VALUE="X=1"/><WillBe Name="A" value="B"/>',
    tree: '<sel value="X=1"/><willbe name="A" value="B"/>',
  },
  { name: 'a closing tag in another case than its opening tag', xml: '<Tabu><tcol fun="cnt"/></TABU>', tree: '<tabu><tcol fun="cnt"/></tabu>' },
  { name: 'whitespace-only text, dropped', xml: '<tabu>\n  <tcol fun="cnt"/>\n  \t\n</tabu>', tree: '<tabu><tcol fun="cnt"/></tabu>' },
  { name: 'text with its surrounding whitespace kept', xml: '<table cols="a">\n1;\n2\n</table>', tree: '<table cols="a">[\n1;\n2\n]</table>' },
  { name: 'a bare & in text', xml: '<note>sales & margin</note>', tree: '<note>[sales & margin]</note>' },
  { name: 'a bare < in text that does not start a tag', xml: '<note>a < 5 and <6</note>', tree: '<note>[a < 5 and <6]</note>' },
  { name: 'a byte-order mark before the query', xml: '\uFEFF<base table="t"/>', tree: '<base table="t"/>' },
  { name: 'an empty attribute value', xml: '<tcol fun="cnt" weight=""/>', tree: '<tcol fun="cnt" weight=""/>' },
  { name: 'attributes in document order', xml: '<link z="1" a="2" m="3"/>', tree: '<link z="1" a="2" m="3"/>' },
  { name: 'spaces around = in an attribute', xml: '<base table = "t"/>', tree: '<base table="t"/>' },
  { name: 'an empty query', xml: '  \n ', tree: '' },
  { name: `elements nested ${MAX_XML_DEPTH} deep`, xml: nested(MAX_XML_DEPTH), tree: nested(MAX_XML_DEPTH).replace(`<a></a>`, '<a/>') },
]

const LOCATIONS: readonly { name: string; xml: string; path: number[]; loc: { line: number; col: number } }[] = [
  { name: 'an element on the first line', xml: '  <base table="t"/>', path: [0], loc: { line: 1, col: 3 } },
  { name: 'an element on a later line', xml: '<base table="t"/>\n\n    <sel value="a"/>', path: [1], loc: { line: 3, col: 5 } },
  { name: 'an element after escaped raw characters on the same line', xml: '<a x="&&<>"/><b/>', path: [1], loc: { line: 1, col: 14 } },
  { name: 'an element after a multi-line attribute', xml: '<a x="1\n2\n3"/> <b/>', path: [1], loc: { line: 3, col: 6 } },
  { name: 'a nested element', xml: '<tabu>\n  <tcol fun="cnt"/></tabu>', path: [0, 0], loc: { line: 2, col: 3 } },
  { name: 'a text node, at its first non-blank character', xml: '<table cols="a">\n   1;2</table>', path: [0, 0], loc: { line: 2, col: 4 } },
  { name: 'an element after a bare & in text', xml: '<note>a & b</note><x/>', path: [1], loc: { line: 1, col: 19 } },
]

const REJECTED: readonly { name: string; xml: string; line: number; col: number; parts: string[] }[] = [
  { name: 'a tag missing its >', xml: '<sel value="a=1"\n<willbe name="x" value="1"/>', line: 2, col: 1, parts: ["expected '>' to close <sel"] },
  {
    name: 'a tag cut off at the end',
    xml: '<base table="t"/>\n<sel value="a"',
    line: 2,
    col: 15,
    parts: ["expected '>' to close <sel", 'opened at line 2, column 1'],
  },
  {
    name: 'an element never closed',
    xml: '<base table="t"/>\n<tabu breaks="a">\n<tcol fun="cnt"/>',
    line: 2,
    col: 1,
    parts: ['<tabu> is never closed', 'expected </tabu>'],
  },
  {
    name: 'a closing tag for the wrong element',
    xml: '<tabu>\n  <tcol fun="cnt">\n</tabu>',
    line: 3,
    col: 1,
    parts: ['</tabu> closes <tcol> opened at line 2', 'expected </tcol>'],
  },
  { name: 'a closing tag with nothing open', xml: '<base table="t"/>\n  </sel>', line: 2, col: 3, parts: ['</sel> has no matching <sel>'] },
  {
    name: 'an attribute value never closed',
    xml: '<sel value="a=1/>\n<base table="t"/>',
    line: 2,
    col: 18,
    parts: ['expected " to close the attribute value opened at line 2, column 15', '(in <sel …> opened at line 1, column 1)'],
  },
  { name: 'an unquoted attribute value', xml: '<base table=t/>', line: 1, col: 13, parts: ["the value of attribute 'table' of <base", 'must be in quotes'] },
  { name: 'an attribute without a value', xml: '<colord hard cols="a"/>', line: 1, col: 14, parts: ["attribute 'hard' of <colord", 'has no value'] },
  { name: 'an attribute without a value before />', xml: '<colord hard/>', line: 1, col: 13, parts: ["attribute 'hard' of <colord", 'has no value'] },
  { name: 'an attribute given twice', xml: '<sel value="a" VALUE="b"/>', line: 1, col: 21, parts: ["attribute 'value' appears twice in <sel"] },
  {
    name: 'attributes without a space between them',
    xml: '<link col="a"col2="b"/>',
    line: 1,
    col: 14,
    parts: ['expected a space between the attributes of <link'],
  },
  {
    name: 'a comment never closed',
    xml: '<base table="t"/>\n<!-- note',
    line: 2,
    col: 10,
    parts: ["expected '-->' to close the comment opened at line 2, column 1"],
  },
  { name: 'a CDATA section never closed', xml: '<table><![CDATA[a,1', line: 1, col: 20, parts: ["expected ']]>' to close the CDATA section"] },
  { name: "a '--' inside a comment", xml: '<!-- a -- b -->', line: 1, col: 10, parts: ["'--' is not allowed inside a comment"] },
  { name: 'an invalid numeric character reference', xml: '<a x="&#0;"/>', line: 1, col: 10, parts: ['invalid character reference'] },
  {
    name: 'a DOCTYPE declaration',
    xml: '<!DOCTYPE q [<!ENTITY x "y">]>\n<a/>',
    line: 1,
    col: 1,
    parts: ['DOCTYPE declarations are not allowed', 'never defines or expands entities'],
  },
  { name: 'an ENTITY declaration', xml: '<a/>\n  <!ENTITY boom "x">', line: 2, col: 3, parts: ['ENTITY declarations are not allowed'] },
  { name: 'a lower-case doctype later in the query', xml: '<a/>\n<b/>\n<!doctype html>', line: 3, col: 1, parts: ['DOCTYPE declarations are not allowed'] },
  { name: "another '<!' declaration", xml: '<![INCLUDE[ x ]]>', line: 1, col: 1, parts: ["only comments (<!-- -->) and CDATA sections may start with '<!'"] },
  {
    name: `elements nested more than ${MAX_XML_DEPTH} deep`,
    xml: nested(MAX_XML_DEPTH + 1),
    line: 1,
    col: 3 * MAX_XML_DEPTH + 1,
    parts: [`nested more than ${MAX_XML_DEPTH} deep`],
  },
  { name: "a '/' not followed by '>' in a tag", xml: '<base table="t" / >', line: 1, col: 18, parts: ["expected '>' after '/' in <base"] },
  { name: 'an invalid character in a tag name', xml: '<se$l value="a"/>', line: 1, col: 4, parts: ["unexpected '$' in the tag name <se"] },
  { name: 'an empty closing tag', xml: '<a>x</>', line: 1, col: 7, parts: ['malformed closing tag'] },
  { name: 'the reserved root element name', xml: '<__tabula_root__/>', line: 1, col: 1, parts: ['reserved element name'] },
  {
    name: 'an error after escaped raw characters, at its original column',
    xml: '<sel value="a<b & c>d"/>\n<x y="1"z="2"/>',
    line: 2,
    col: 9,
    parts: ['expected a space between the attributes of <x'],
  },
  { name: 'an error on a line after a multi-line attribute', xml: '<a x="1\n2"/>\n<b c=d/>', line: 3, col: 6, parts: ["attribute 'c' of <b"] },
]

describe('parseXml()', () => {
  describe('accepted input', () => {
    for (const c of ACCEPTED) it(`parses ${c.name}`, () => expect(top(c.xml)).to.equal(c.tree))

    it('returns a synthetic root named query at line 1, column 1', () => {
      const root = parseXml('<base table="t"/>')
      expect(root.name).to.equal('query')
      expect(root.loc).to.deep.equal({ line: 1, col: 1 })
      expect(root.attrs).to.deep.equal({})
    })

    it('keeps the case of attribute values', () => {
      const el = parseXml('<Base Table="Pub.Demo"/>').children[0] as XmlElement
      expect(el.attrs).to.deep.equal({ table: 'Pub.Demo' })
    })
  })

  describe('locations', () => {
    for (const c of LOCATIONS) {
      it(`places ${c.name} at line ${c.loc.line}, column ${c.loc.col}`, () => {
        let node: XmlNode = parseXml(c.xml)
        for (const i of c.path) node = (node as XmlElement).children[i]
        expect(node.loc).to.deep.equal(c.loc)
      })
    }
  })

  describe('malformed input', () => {
    for (const c of REJECTED) {
      it(`rejects ${c.name} at line ${c.line}, column ${c.col}`, () => {
        const err = parseError(c.xml)
        expect(err.code).to.equal('PARSE_ERROR')
        expect(err.detail).to.include({ line: c.line, col: c.col })
        expect(err.message).to.match(new RegExp(`^Line ${c.line}, column ${c.col}: `))
        for (const part of c.parts) expect(err.message).to.include(part)
      })
    }
  })
})
