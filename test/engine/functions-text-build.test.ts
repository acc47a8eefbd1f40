/**
 * splice, strpick, strextract, width, int of text, todate, the t_ functions, r_mapstring and the
 * refused r_ functions, through whole queries (parse → check → interpret), and the same answers on the
 * parallel path. Expected values of the 1010data examples are written from the documentation:
 * the MACRO() page (splice), the Cookbook's "Transforming dates from text to integers" recipes
 * and the todate(X;Y) page.
 */
import { expect } from 'chai'
import type { TableInput } from '../../shared/protocol.js'
import { columnsOf, makeTable, runXml, type Cell } from '../helpers/engine.js'
import { checkedOps, expectIdentical, interpreted, single, split, taskOf } from './parallel-harness.js'

const PEOPLE = makeTable('people', [
  { name: 'name', type: 'text', values: ['Ann', 'Bob', null, 'Dee'] },
  { name: 'state', type: 'text', values: ['CA', 'NY', 'TX', null] },
  { name: 'n', type: 'int', values: [1, 2, 3, null] },
  { name: 'f', type: 'float', values: [1.5, 2, -0.25, 4] },
  { name: 'd', type: 'date', values: [20240131, 20240229, null, 20231231] },
])

function column(xml: string, name: string, tables: readonly TableInput[] = [PEOPLE]): Cell[] {
  return columnsOf(runXml(xml, tables))[name]
}

/** The error a query fails with (fails the test when it runs). */
function errorOf(xml: string, tables: readonly TableInput[] = [PEOPLE]): Error & { code?: string } {
  try {
    runXml(xml, tables)
  } catch (e) {
    return e as Error
  }
  throw new Error(`ran without an error: ${xml}`)
}

const onPeople = (body: string): string => `<base table="people"/>${body}`

describe('splice(L;D)', () => {
  it("joins the columns of L with D, as in the MACRO() page's splice(name state;', ')", () => {
    const xml = onPeople(`<willbe name="city" value="splice(name state;', ')" label="Station City"/>`)
    expect(column(xml, 'city')).to.deep.equal(['Ann, CA', 'Bob, NY', '', ''])
  })

  it('writes numbers and dates as their values, joins without a delimiter when D is omitted, and takes a single value', () => {
    expect(column(onPeople(`<willbe name="s" value="splice(n f d;'|')"/>`), 's')).to.deep.equal(['1|1.5|20240131', '2|2|20240229', '', ''])
    expect(column(onPeople(`<willbe name="s" value="splice(name state;)"/>`), 's')).to.deep.equal(['AnnCA', 'BobNY', '', ''])
    expect(column(onPeople(`<willbe name="s" value="splice(f;'')"/>`), 's')).to.deep.equal(['1.5', '2', '-0.25', '4'])
  })

  it('joins constants and expressions written side by side', () => {
    const xml = onPeople(`<willbe name="s" value="splice('id' strupcase(name) n+1;'-')"/>`)
    expect(column(xml, 's')).to.deep.equal(['id-ANN-2', 'id-BOB-3', '', ''])
    const mixed = onPeople(`<willbe name="s" value="splice(name 'x' 'y' n;'')"/>`)
    expect(column(mixed, 's')).to.deep.equal(['Annxy1', 'Bobxy2', '', ''])
  })

  it('refuses a wrong number of arguments and a missing L, naming the form', () => {
    expect(errorOf(onPeople(`<willbe name="s" value="splice(name;',';1)"/>`)).message).to.contain('splice() takes 2 arguments (L;D), got 3')
    expect(errorOf(onPeople(`<willbe name="s" value="splice(;',')"/>`)).message).to.contain('splice() needs its argument L')
    expect(errorOf(onPeople(`<willbe name="s" value="splice(name;state)"/>`)).message).to.contain('must be a constant')
  })

  it('refuses expressions side by side anywhere but in splice, at their position', () => {
    const err = errorOf(onPeople(`<willbe name="s" value="abs(n+1 f)"/>`))
    expect(err.message).to.contain('Only constants can stand side by side').and.contain('column 5 of the expression')
  })
})

describe('the Cookbook recipes that turn dates written as text into yyyymmdd integers', () => {
  const DATES = (values: string[]): TableInput[] => [makeTable('dates', [{ name: 'date_column', type: 'text', values }])]
  const converted = (value: string, values: string[]): Cell[] =>
    column(`<base table="dates"/><willbe name="new_date" value="${value}" format="type:date"/>`, 'new_date', DATES(values))

  it('MMDDYYYY with strextract: 01042015 → 20150104', () => {
    const value = "int(splice(strextract(date_column;5;4) strextract(date_column;1;2) strextract(date_column;3;2);''))"
    expect(converted(value, ['01042015'])).to.deep.equal([20150104])
  })

  it('MM-DD-YYYY and MM/DD/YYYY with strpick: 01-04-2015 and 01/04/2015 → 20150104', () => {
    const dashed = "int(splice(strpick(date_column;'-';3) strpick(date_column;'-';1) strpick(date_column;'-';2);''))"
    expect(converted(dashed, ['01-04-2015'])).to.deep.equal([20150104])
    const slashed = "int(splice(strpick(date_column;'/';3) strpick(date_column;'/';1) strpick(date_column;'/';2);''))"
    expect(converted(slashed, ['01/04/2015'])).to.deep.equal([20150104])
  })

  it("MM/DD/YY, prefixing '20' with a nested splice: 01/04/15 → 20150104", () => {
    const value = "int(splice(splice('20' strpick(date_column;'/';3);'') strpick(date_column;'/';1) strpick(date_column;'/';2);''))"
    expect(converted(value, ['01/04/15'])).to.deep.equal([20150104])
  })

  it('M/D/YYYY, padding one-digit parts found by width(): 1/4/2015 → 20150104', () => {
    const value =
      "int(splice(strpick(date_column;'/';3) if(width(strpick(date_column;'/';1))=1; splice('0' strpick(date_column;'/';1);''); strpick(date_column;'/';1)) " +
      "if(width(strpick(date_column;'/';2))=1; splice('0' strpick(date_column;'/';2);''); strpick(date_column;'/';2));''))"
    expect(converted(value, ['1/4/2015', '12/31/1999'])).to.deep.equal([20150104, 19991231])
  })

  it('gives N/A, not a shifted number, when a part is missing', () => {
    const value = "int(splice(strpick(date_column;'/';3) strpick(date_column;'/';1) strpick(date_column;'/';2);''))"
    expect(converted(value, ['01/2015', ''])).to.deep.equal([null, null])
  })
})

describe('strpick, strextract, width and int of text', () => {
  const TEXTS = [makeTable('t', [{ name: 'x', type: 'text', values: ['a,b,,d', 'solo', null, ' 42 ', '12.9', '-7.5e1', 'abc', '3000000000', '12kg'] }])]
  const on = (value: string): Cell[] => column(`<base table="t"/><willbe name="v" value="${value}"/>`, 'v', TEXTS)

  it('strpick gives the Nth piece from 1, N/A for a missing or empty piece', () => {
    expect(on("strpick(x;',';1)").slice(0, 3)).to.deep.equal(['a', 'solo', ''])
    expect(on("strpick(x;',';2)").slice(0, 2)).to.deep.equal(['b', ''])
    expect(on("strpick(x;',';3)")[0]).to.equal('')
    expect(on("strpick(x;',';4)")[0]).to.equal('d')
  })

  it('strpick refuses an empty delimiter and an N below 1', () => {
    expect(errorOf(`<base table="t"/><willbe name="v" value="strpick(x;'';1)"/>`, TEXTS).message).to.contain('the delimiter D is empty')
    expect(errorOf(`<base table="t"/><willbe name="v" value="strpick(x;',';0)"/>`, TEXTS).message).to.contain('pieces count from 1')
  })

  it('strextract is substr under its Cookbook name; width is strlen', () => {
    expect(on('strextract(x;2;3)').slice(0, 2)).to.deep.equal([',b,', 'olo'])
    expect(on('strextract(x;3)')[1]).to.equal('lo')
    expect(on('width(x)').slice(0, 4)).to.deep.equal([6, 4, null, 4])
  })

  it('int reads text as a number, truncated; N/A for text that is no number or leaves the int range', () => {
    expect(on('int(x)')).to.deep.equal([null, null, null, 42, 12, -75, null, null, null])
  })
})

describe('todate(X;Y)', () => {
  it("reads the documented example's dates in 'mdymode' (15/3/12 has month 15 there: N/A)", () => {
    const xml =
      // The page writes the rows as double-quoted values side by side; our <table> reads rows
      // separated by ';' (single quotes around a value with a comma).
      "<table cols=\"date_text\">'31 Oct 2017';'February 3, 2016 04:45:01';'1/2/5';'15/3/12'</table>" +
      `<willbe name="date_converted" value="todate(date_text;'mdymode')" format="type:date4y"/>`
    expect(column(xml, 'date_converted', [])).to.deep.equal([20171031, 20160203, 20050102, null])
  })

  it('reads ambiguous dates in the order of the mode, and yyyymmdd, ISO and month names in any mode', () => {
    const xml = (mode: string): string =>
      `<table cols="t">${['1/2/2003', '2003-02-01', '20030201', 'Feb 1 2003', '1 February 2003 11:30 pm', '2/30/2003'].map((v) => `'${v}'`).join(';')}</table>` +
      `<willbe name="v" value="todate(t${mode})"/>`
    expect(column(xml(''), 'v', [])).to.deep.equal([20030102, 20030201, 20030201, 20030201, 20030201, null])
    expect(column(xml(";'dmymode'"), 'v', [])).to.deep.equal([20030201, 20030201, 20030201, 20030201, 20030201, null])
  })

  it('checks dates and yyyymmdd integers, N/A for a value that is not a calendar date', () => {
    const t = [makeTable('i', [{ name: 'v', type: 'int', values: [20240229, 20230229, 2024, null] }])]
    expect(column('<base table="i"/><willbe name="d" value="todate(v)"/>', 'd', t)).to.deep.equal([20240229, null, null, null])
    expect(column(onPeople('<willbe name="x" value="todate(d)"/>'), 'x')).to.deep.equal([20240131, 20240229, null, 20231231])
  })

  it("fails naming the value under 'invaliderr', and refuses unknown options", () => {
    const xml = (y: string): string => `<table cols="t">'1/2/2003';'soon'</table><willbe name="v" value="todate(t;${y})"/>`
    expect(errorOf(xml("'mdymode' 'invaliderr'"), []).message).to.contain("'soon' is not a date")
    expect(errorOf(xml("'mdymode invaliderr'"), []).message).to.contain("'soon' is not a date")
    expect(column(xml("'invalidna'"), 'v', [])).to.deep.equal([20030102, null])
    expect(errorOf(xml("'eu'"), []).message).to.contain("unknown option 'eu'")
  })
})

describe('the t_ functions', () => {
  it('are the g_ functions with G, S and O omitted', () => {
    const xml = onPeople(
      '<willbe name="a" value="t_cumsum(n)"/><willbe name="b" value="g_cumsum(;;;n)"/>' +
        '<willbe name="c" value="t_rank(f)"/><willbe name="e" value="t_rshift(n;1)"/><willbe name="g" value="t_sum(f)"/>',
    )
    const r = columnsOf(runXml(xml, [PEOPLE]))
    expect(r.a).to.deep.equal(r.b)
    expect(r.c).to.deep.equal([3, 2, 4, 1])
    expect(r.e).to.deep.equal([2, 3, null, null])
    expect(r.g).to.deep.equal([7.25, 7.25, 7.25, 7.25])
  })

  it('refuse a wrong number of arguments, giving the t_ signature', () => {
    expect(errorOf(onPeople('<willbe name="c" value="t_rank(f;1)"/>')).message).to.contain('t_rank() takes the arguments t_rank(X)')
    expect(errorOf(onPeople('<willbe name="c" value="t_nosuch(f)"/>')).message).to.contain('Unknown function "t_nosuch"')
  })
})

describe('strfollow(X;Y;B)', () => {
  it("gives the documented Sample Usage results (the strfollow page's table)", () => {
    const xml =
      '<table cols="value,string2,caseflag">apple,application,1;apple,app,1;apple,Apple,0;Apple,apple,1;Apple,,1;,,1</table>' +
      '<willbe name="f" value="strfollow(value;string2;caseflag)"/>'
    expect(column(xml, 'f', [])).to.deep.equal([5, 4, 0, 1, 1, 0])
  })

  it('counts code points and takes constants', () => {
    expect(column(onPeople(`<willbe name="fo" value="strfollow('a😀b';'a😀c';1)"/>`), 'fo')).to.deep.equal([3, 3, 3, 3])
    expect(column(onPeople(`<willbe name="fo" value="strfollow(name;'ANN';0)"/>`), 'fo')).to.deep.equal([0, 1, 1, 1])
  })
})

describe('r_mapstring(C;S;X;D)', () => {
  const PRODUCTS = [
    makeTable('prod', [
      { name: 'dept', type: 'int', values: [1, 2, null] },
      { name: 'deptdesc', type: 'text', values: ['Food', 'Toys', 'Misc'] },
      { name: 'descr', type: 'text', values: ['apple', null, 'pen'] },
      { name: 'a', type: 'int', values: [5, 6, 7] },
      { name: 'b', type: 'int', values: [50, 2, null] },
    ]),
  ]
  const mapped = (value: string): Cell[] => column(`<base table="prod"/><willbe name="m" value="${value}"/>`, 'm', PRODUCTS)

  it("maps the columns a pattern matches, kept by rct_ and transformed by X (the docs' 'd*';rct_='a';strupcase(rcv_))", () => {
    expect(mapped("r_mapstring('d*';rct_='a';strupcase(rcv_);',')")).to.deep.equal(['FOOD,APPLE', 'TOYS,', 'MISC,PEN'])
  })

  it('keeps per row the columns whose S holds, X defaulting to the value and D to no delimiter', () => {
    expect(mapped("r_mapstring(a b;rcv_>5;;'+')")).to.deep.equal(['50', '6', '7'])
    expect(mapped('r_mapstring(a,b;;;)')).to.deep.equal(['550', '62', '7'])
    expect(mapped("r_mapstring(a b;rcn_<>'a';rcv_*2;'/')")).to.deep.equal(['100', '4', ''])
  })

  it('reads rcn_ and rcv_ side by side, takes D from a column, and gives empty text when no column is kept', () => {
    expect(mapped("r_mapstring(a b;;splice(rcn_ rcv_;'=');' ')")).to.deep.equal(['a=5 b=50', 'a=6 b=2', 'a=7 '])
    expect(mapped('r_mapstring(a b;;;deptdesc)')).to.deep.equal(['5Food50', '6Toys2', '7Misc'])
    expect(mapped("r_mapstring('zz*';;;',')")).to.deep.equal(['', '', ''])
    expect(mapped("r_mapstring(a b;rct_='a';;',')")).to.deep.equal(['', '', ''])
  })

  it('works in a selection', () => {
    expect(column(`<base table="prod"/><sel value="r_mapstring(a b;rcv_>5;;'+')='6'"/>`, 'a', PRODUCTS)).to.deep.equal([6])
  })

  it('refuses unknown columns, a C that names no columns and too many arguments', () => {
    expect(errorOf(`<base table="prod"/><willbe name="m" value="r_mapstring(a nope;;;)"/>`, PRODUCTS).message).to.contain('Unknown column "nope"')
    expect(errorOf(`<base table="prod"/><willbe name="m" value="r_mapstring(a+1;;;)"/>`, PRODUCTS).message).to.contain('C must name columns')
    expect(errorOf(`<base table="prod"/><willbe name="m" value="r_mapstring(a;;;;1)"/>`, PRODUCTS).message).to.contain('takes 4 arguments')
  })
})

describe('r_mappkg and r_mapjson', () => {
  it('are refused by name, pointing to r_mapstring', () => {
    for (const fn of ['r_mappkg(;;)', "r_mapjson('d*';rct_='a';strupcase(rcv_);)"]) {
      const err = errorOf(onPeople(`<willbe name="p" value="${fn}"/>`))
      expect(err.message).to.contain('packages are not supported')
    }
  })
})

describe('text building on the parallel path', () => {
  const ROWS = 5000
  const WORDS = ['1/4/2015', '12/31/1999', 'x', '', '7/7/77']
  const big = makeTable('big', [
    { name: 'k', type: 'int', values: Array.from({ length: ROWS }, (_, i) => (i % 97 === 0 ? null : i % 13)) },
    { name: 'w', type: 'text', values: Array.from({ length: ROWS }, (_, i) => WORDS[i % WORDS.length]) },
  ])
  const queries = [
    `<base table="big"/><willbe name="s" value="splice(w k;'#')"/><sel value="k>3"/>`,
    `<base table="big"/><willbe name="d" value="todate(w)"/><willbe name="y" value="int(strpick(w;'/';3))"/><sel value="d>19990000"/>`,
    `<base table="big"/><willbe name="c" value="t_cumsum(k)"/><willbe name="r" value="t_rshift(w;-2)"/>`,
    `<base table="big"/><willbe name="m" value="r_mapstring(;rct_='i';rcv_+1;',')"/><sel value="r_mapstring(k w;;;'')<>''"/>`,
  ]
  for (const xml of queries) {
    it(`gives the interpreter's answer in parts: ${xml.slice(22, 90)}`, () => {
      const ops = checkedOps(xml, [big])
      const expected = interpreted(ops, [big])
      const task = taskOf(ops, [big])
      expectIdentical(single(task, 700), expected, 'one part')
      const parts = split(task, 3, 700)
      if (parts !== null) expectIdentical(parts.result, expected, 'three parts')
    })
  }
})
