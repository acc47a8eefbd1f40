import { expect } from 'chai'
import { AppError } from '../../shared/errors.js'
import { parseQuery } from '../../engine/parse/index.js'

/** A query using most of the language, to be mutated at random. */
const QUERY = `<macro><library><block name="b" v="1"><sel value="x={@v} &amp; y<3"/></block></library>
<base table="pub.t"/><!-- c --><insert block="b" v="2"/><let a="q"><willbe name="{@a}" value="if(a>1;'x';'y')"/></let>
<if test="{endswith('{@t}';'ly')}"><then><sort col="a" dir="down"/></then><else><colord cols="a,b"/></else></if>
<tabu breaks="a"><tcol fun="sum" source="b"/><break col="a"/></tabu><link table2="t2" col="a"><sel value="z"/></link>
<table cols="a,b"><![CDATA[1,2;'x,y',3]]></table></macro>`

/** Characters that matter to the XML, block and expression layers. */
const NOISE = `<>&"'/={}@;,!?-[] \nabc`

/** A small deterministic generator, so a failure can be reproduced. */
function generator(seed: number): (n: number) => number {
  let s = seed
  return (n) => {
    s = (s * 1103515245 + 12345) & 0x7fffffff
    return s % n
  }
}

function mutate(text: string, rnd: (n: number) => number): string {
  let s = text
  for (let j = 1 + rnd(4); j > 0; j--) {
    const p = rnd(s.length)
    const c = NOISE[rnd(NOISE.length)]
    const how = rnd(3)
    s = how === 0 ? s.slice(0, p) + s.slice(p + 1) : how === 1 ? s.slice(0, p) + c + s.slice(p) : s.slice(0, p) + c + s.slice(p + 1)
  }
  return s
}

/** An AppError of a query code whose line and column lie inside `text` and open its message. */
function isPositioned(err: unknown, text: string): boolean {
  if (!(err instanceof AppError) || !['PARSE_ERROR', 'CHECK_ERROR', 'EXPR_ERROR'].includes(err.code)) return false
  const { line, col } = err.detail as { line?: number; col?: number }
  const lines = text.split('\n')
  if (typeof line !== 'number' || typeof col !== 'number' || line < 1 || line > lines.length) return false
  return col >= 1 && col <= lines[line - 1].length + 1 && err.message.startsWith(`Line ${line}`)
}

describe('parseQuery() on randomly damaged queries', () => {
  it('parses the undamaged query', () => {
    expect(parseQuery(QUERY, { t: 'monthly' })).to.have.length(7)
  })

  it('either parses or throws a positioned PARSE_ERROR, CHECK_ERROR or EXPR_ERROR, never anything else', function () {
    this.timeout(20_000)
    const rnd = generator(7)
    const wrong: string[] = []
    for (let i = 0; i < 1500 && wrong.length < 5; i++) {
      const text = mutate(QUERY, rnd)
      try {
        parseQuery(text, { t: 'monthly' })
      } catch (err) {
        if (!isPositioned(err, text)) wrong.push(`${JSON.stringify(text)} → ${String(err)}`)
      }
    }
    expect(wrong).to.deep.equal([])
  })
})
