import { expect } from 'chai'
import { parseDynamic, withInstanceId } from '../../engine/dynamic/index.js'

/** Queries and what `new` with tag 7 must store. */
const CASES: readonly { name: string; xml: string; out: string }[] = [
  {
    name: 'a query that is one <dynamic>',
    xml: '<dynamic x="1"><widget name="index"/></dynamic>',
    out: '<dynamic x="1" instid_="7"><widget name="index"/></dynamic>',
  },
  { name: 'a <dynamic> without attributes', xml: '<dynamic><widget/></dynamic>', out: '<dynamic instid_="7"><widget/></dynamic>' },
  { name: 'an empty-element <dynamic/>', xml: '<dynamic x="1"/>', out: '<dynamic x="1" instid_="7"/>' },
  {
    name: 'a <dynamic> wrapped in <macro>, as the devbox client sends it',
    xml: '<macro>\n  <dynamic x="1"\n     y=\'2\'\n  >\n    <widget/>\n  </dynamic>\n</macro>',
    out: '<macro>\n  <dynamic x="1"\n     y=\'2\' instid_="7"\n  >\n    <widget/>\n  </dynamic>\n</macro>',
  },
  {
    name: 'a <dynamic> after a library and a comment',
    xml: '<library><block name="b"/></library><!-- <dynamic> --><dynamic a="&amp;>"/>',
    out: '<library><block name="b"/></library><!-- <dynamic> --><dynamic a="&amp;>" instid_="7"/>',
  },
  {
    name: 'a <dynamic> after raw < > & and non-ASCII text on the same line',
    xml: '<note>a & b 𝄞</note><sel value="a<1 & b>2"/><dynamic x="é"/>',
    out: '<note>a & b 𝄞</note><sel value="a<1 & b>2"/><dynamic x="é" instid_="7"/>',
  },
  { name: 'a <dynamic> followed by a <note>', xml: '<dynamic/><note>about</note>', out: '<dynamic instid_="7"/><note>about</note>' },
  { name: 'upper-case spelling', xml: '<DYNAMIC X="1"></DYNAMIC>', out: '<DYNAMIC X="1" instid_="7"></DYNAMIC>' },
  { name: 'an instid_ already present, which is replaced', xml: `<dynamic instid_='3' x="1"/>`, out: '<dynamic instid_="7" x="1"/>' },
  { name: 'an INSTID_ spelt in capitals, also replaced', xml: '<macro><dynamic INSTID_ = "3"/></macro>', out: '<macro><dynamic INSTID_ = "7"/></macro>' },
  {
    name: 'a text before on an earlier line with a byte order mark',
    xml: '\ufeff<macro>\r\n<dynamic/></macro>',
    out: '\ufeff<macro>\r\n<dynamic instid_="7"/></macro>',
  },
]

/** Queries that must come back unchanged. */
const UNCHANGED: readonly { name: string; xml: string }[] = [
  { name: 'an ordinary query', xml: '<base table="t"/><sel value="x>1"/>' },
  { name: 'a query whose <dynamic> is followed by an operation', xml: '<dynamic x="1"/><sel value="1"/>' },
  { name: 'a wrapped query whose <dynamic> is not last inside <macro>', xml: '<macro><dynamic/><base table="t"/></macro>' },
  { name: 'a <dynamic> inside a widget only', xml: '<macro><widget><dynamic/></widget></macro>' },
  { name: 'an empty query', xml: '' },
]

describe('engine/dynamic: withInstanceId', () => {
  for (const c of CASES) {
    it(`adds instid_ to ${c.name}`, () => {
      expect(withInstanceId(c.xml, 7)).to.equal(c.out)
    })
  }

  for (const c of UNCHANGED) {
    it(`leaves ${c.name} unchanged`, () => {
      expect(withInstanceId(c.xml, 7)).to.equal(c.xml)
    })
  }

  it('gives a query that parseDynamic reads with the tag as its instid_', () => {
    expect(parseDynamic(withInstanceId('<macro><dynamic x="1" instid_="old"/></macro>', 42))?.system).to.deep.equal({ instid_: '42' })
  })

  it('escapes a tag given as text', () => {
    expect(withInstanceId('<dynamic/>', 'a"b')).to.equal('<dynamic instid_="a&quot;b"/>')
  })

  it('leaves text around the start tag byte for byte as written', () => {
    const xml = '<macro>\n  <!-- keep -->\n  <dynamic\tx = "1"   >  <widget name="index"><sel value="a<3"/></widget></dynamic>\n</macro>\n'
    const out = withInstanceId(xml, 12)
    expect(out.replace(' instid_="12"', '')).to.equal(xml)
  })
})
