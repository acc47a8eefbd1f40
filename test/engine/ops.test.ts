import { expect } from 'chai'
import { AppError } from '../../shared/errors.js'
import type { Expr } from '../../engine/ast.js'
import { showExpr } from '../../engine/expr/index.js'
import { parseQuery, parseXml, tableRefs, toOps } from '../../engine/parse/index.js'

const EXPR_KEYS = new Set(['cond', 'value', 'source', 'weight'])

/** Ops without locations, expressions shown with showExpr, so expectations fit on a line. */
function plain(x: unknown, key = ''): unknown {
  if (Array.isArray(x)) return x.map((v) => plain(v))
  if (x === null || typeof x !== 'object') return x
  if (EXPR_KEYS.has(key) && 'kind' in x) return showExpr(x as Expr)
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(x)) if (k !== 'loc') out[k] = plain(v, k)
  return out
}

const ops = (xml: string): unknown => plain(parseQuery(xml))
const op = (xml: string): unknown => (ops(xml) as unknown[])[0]

function opError(xml: string): AppError {
  try {
    parseQuery(xml)
  } catch (err) {
    if (err instanceof AppError) return err
    throw err
  }
  throw new Error('expected an error')
}

const tabu = (over: Record<string, unknown>): Record<string, unknown> => ({
  kind: 'Tabu',
  breaks: [],
  cbreaks: [],
  breakSpecs: [],
  tcols: [],
  label: '',
  ...over,
})
const tcol = (over: Record<string, unknown>): Record<string, unknown> => ({ fun: 'cnt', source: null, weight: null, name: null, meta: {}, ...over })
const brk = (over: Record<string, unknown>): Record<string, unknown> => ({ sort: 'up', naorder: 'first', ...over })
const link = (over: Record<string, unknown>): Record<string, unknown> => ({
  kind: 'Link',
  table2: 't2',
  ops: [],
  col: ['k'],
  col2: ['k'],
  cols: null,
  suffix: '',
  type: 'exact',
  label: '',
  ...over,
})

const BUILT: readonly { name: string; xml: string; op: unknown }[] = [
  // base
  { name: 'base takes the table path, lower-cased', xml: '<base table="Pub.Demo.Retail.Item"/>', op: { kind: 'Base', table: 'pub.demo.retail.item' } },
  { name: 'base ignores UI attributes', xml: '<base table="t" trs_timeline_="1"/>', op: { kind: 'Base', table: 't' } },
  // table
  {
    name: 'table reads rows split by ; and cells by ,',
    xml: '<table cols="name,data_1,data_2" title="demo">\nJohn,8,0;\nMary,3,1;\nJohn,2,0\n</table>',
    op: {
      kind: 'Table',
      cols: ['name', 'data_1', 'data_2'],
      rows: [
        ['John', '8', '0'],
        ['Mary', '3', '1'],
        ['John', '2', '0'],
      ],
      depth: null,
      title: 'demo',
    },
  },
  {
    name: 'table accepts spaces after the commas of cols and a trailing ;',
    xml: '<table cols="Name, Data_1">a,1;b,2;</table>',
    op: {
      kind: 'Table',
      cols: ['name', 'data_1'],
      rows: [
        ['a', '1'],
        ['b', '2'],
      ],
      depth: null,
      title: '',
    },
  },
  {
    name: 'table keeps empty cells as N/A (the walk-through data)',
    xml: '<table cols="k,g,v">1,x,10;\n2,y,;\n3,x,5;\n4,y,7;\n5,x,</table>',
    op: {
      kind: 'Table',
      cols: ['k', 'g', 'v'],
      rows: [
        ['1', 'x', '10'],
        ['2', 'y', ''],
        ['3', 'x', '5'],
        ['4', 'y', '7'],
        ['5', 'x', ''],
      ],
      depth: null,
      title: '',
    },
  },
  {
    name: 'table takes single-quoted cells holding , and ; and doubled quotes',
    xml: `<table cols="a,b">'x,y', 'p;q' ; 'it''s',  plain text </table>`,
    op: {
      kind: 'Table',
      cols: ['a', 'b'],
      rows: [
        ['x,y', 'p;q'],
        ["it's", 'plain text'],
      ],
      depth: null,
      title: '',
    },
  },
  {
    name: 'table keeps a quote inside an unquoted cell',
    xml: `<table cols="a">O'Brien</table>`,
    op: { kind: 'Table', cols: ['a'], rows: [["O'Brien"]], depth: null, title: '' },
  },
  { name: 'table with depth makes rows without columns', xml: '<table depth="5"/>', op: { kind: 'Table', cols: [], rows: [], depth: 5, title: '' } },
  { name: 'table with depth 0 is empty', xml: '<table depth="0"/>', op: { kind: 'Table', cols: [], rows: [], depth: 0, title: '' } },
  { name: 'table with cols and no data has no rows', xml: '<table cols="a,b"/>', op: { kind: 'Table', cols: ['a', 'b'], rows: [], depth: null, title: '' } },
  {
    name: 'table with format="empty" ignores its content',
    xml: '<table cols="a" format="empty">1;2</table>',
    op: { kind: 'Table', cols: ['a'], rows: [], depth: null, title: '' },
  },
  {
    name: 'table reads CDATA content',
    xml: '<table cols="a,b"><![CDATA[x<y,1]]></table>',
    op: { kind: 'Table', cols: ['a', 'b'], rows: [['x<y', '1']], depth: null, title: '' },
  },
  // sel
  { name: 'sel parses its value', xml: '<sel value="sales_price>5.00"/>', op: { kind: 'Sel', cond: '(> sales_price 5.0)' } },
  { name: 'sel accepts a raw <= in its value', xml: '<sel value="g_cumcnt(ticker;;)<=8"/>', op: { kind: 'Sel', cond: '(<= g_cumcnt(ticker, _, _) 8)' } },
  {
    name: 'sel accepts a raw & in its value',
    xml: `<sel value="(~beginswith_ci(posdesc;'CRV')) &amp; (~contains_ci(posdesc;' fee '))"/>`,
    op: { kind: 'Sel', cond: "(& (~ beginswith_ci(posdesc, 'CRV')) (~ contains_ci(posdesc, ' fee ')))" },
  },
  { name: 'sel reads a multi-line value', xml: '<sel value="a=1\n   &amp; b=2"/>', op: { kind: 'Sel', cond: '(& (= a 1) (= b 2))' } },
  {
    name: 'sel combines the reference and/or tree into EXPR_1 | (EXPR_2 & EXPR_3)',
    xml: '<sel><or value="a=1"/><or><and value="b=2"/><and value="c=3"/></or></sel>',
    op: { kind: 'Sel', cond: '(| (= a 1) (& (= b 2) (= c 3)))' },
  },
  {
    name: 'sel combines <and> children with &',
    xml: '<sel><and value="a=1"/><and value="b=2"/><and value="c=3"/></sel>',
    op: { kind: 'Sel', cond: '(& (& (= a 1) (= b 2)) (= c 3))' },
  },
  { name: 'sel with one <or> child is that child', xml: '<sel><or value="a=1"/></sel>', op: { kind: 'Sel', cond: '(= a 1)' } },
  {
    name: 'sel keeps the precedence of each leaf',
    xml: '<sel><and value="a=1 | b=2"/><and value="~c=3"/></sel>',
    op: { kind: 'Sel', cond: '(& (| (= a 1) (= b 2)) (~ (= c 3)))' },
  },
  { name: 'sel ignores name, label and simple', xml: '<sel name="year" value="y=2014" label="2014" simple="1"/>', op: { kind: 'Sel', cond: '(= y 2014)' } },
  // willbe
  {
    name: 'willbe takes a name and a value',
    xml: '<willbe name="margin" value="sales - cost"/>',
    op: { kind: 'Willbe', name: 'margin', value: '(- sales cost)', meta: {} },
  },
  {
    name: 'willbe takes label, desc, format, width and fixed',
    xml: '<willbe name="Margin" value="sales-cost" label="Gross`Margin" desc="d" format="type:currency" width="12" fixed="1"/>',
    op: {
      kind: 'Willbe',
      name: 'margin',
      value: '(- sales cost)',
      meta: { label: 'Gross`Margin', desc: 'd', format: 'type:currency', width: 12, fixed: true },
    },
  },
  {
    name: 'willbe treats empty metadata as not given',
    xml: '<willbe name="m" value="1" label="" format=""/>',
    op: { kind: 'Willbe', name: 'm', value: '1', meta: {} },
  },
  // colord
  {
    name: 'colord keeps cols in order, spaces allowed',
    xml: '<colord cols="date, transid, sku" hide="cost"/>',
    op: { kind: 'Colord', cols: ['date', 'transid', 'sku'], hide: ['cost'], hard: false },
  },
  { name: 'colord without cols keeps every column', xml: '<colord hide="c*, x"/>', op: { kind: 'Colord', cols: null, hide: ['c*', 'x'], hard: false } },
  { name: 'colord keeps * wildcards as written', xml: '<colord cols="C*,*_id"/>', op: { kind: 'Colord', cols: ['c*', '*_id'], hide: [], hard: false } },
  { name: 'colord reads hard="1"', xml: '<colord cols="a,b" hard="1"/>', op: { kind: 'Colord', cols: ['a', 'b'], hide: [], hard: true } },
  { name: 'colord reads hard="0"', xml: '<colord cols="a" hard="0"/>', op: { kind: 'Colord', cols: ['a'], hide: [], hard: false } },
  // col
  {
    name: 'col becomes ColMeta with the metadata given',
    xml: '<col name="Account" label="Customer ID" format="type:nocommas" desc="x" fixed="0"/>',
    op: { kind: 'ColMeta', name: 'account', meta: { label: 'Customer ID', format: 'type:nocommas', desc: 'x', fixed: false } },
  },
  // sort
  { name: 'sort takes col and dir', xml: '<sort col="pro_margin" dir="down"/>', op: { kind: 'Sort', keys: [{ col: 'pro_margin', dir: 'down' }] } },
  { name: 'sort defaults dir to up', xml: '<sort col="A"/>', op: { kind: 'Sort', keys: [{ col: 'a', dir: 'up' }] } },
  {
    name: 'sort takes a cols list, first column primary',
    xml: '<sort cols="a, b"/>',
    op: {
      kind: 'Sort',
      keys: [
        { col: 'a', dir: 'up' },
        { col: 'b', dir: 'up' },
      ],
    },
  },
  {
    name: 'sort applies dir to every key of cols',
    xml: '<sort cols="a,b" dir="DOWN"/>',
    op: {
      kind: 'Sort',
      keys: [
        { col: 'a', dir: 'down' },
        { col: 'b', dir: 'down' },
      ],
    },
  },
  // tabu
  {
    name: 'tabu reads breaks, label and a tcol',
    xml: '<tabu label="Sales by store" breaks="Store, dept"><tcol source="sales" fun="SUM" name="Tot" label="Total`Sales" format="type:currency"/></tabu>',
    op: tabu({
      breaks: ['store', 'dept'],
      label: 'Sales by store',
      tcols: [tcol({ fun: 'sum', source: 'sales', name: 'tot', meta: { label: 'Total`Sales', format: 'type:currency' } })],
    }),
  },
  {
    name: 'tabu with empty breaks summarises everything',
    xml: '<tabu breaks=""><tcol fun="cnt" name="row_count" label="Row Count"/></tabu>',
    op: tabu({ tcols: [tcol({ name: 'row_count', meta: { label: 'Row Count' } })] }),
  },
  { name: 'tabu without tcols lists the distinct breaks', xml: '<tabu breaks="a"/>', op: tabu({ breaks: ['a'] }) },
  {
    name: 'tcol source may be an expression',
    xml: '<tabu><tcol fun="sum" source="price*qty"/></tabu>',
    op: tabu({ tcols: [tcol({ fun: 'sum', source: '(* price qty)' })] }),
  },
  { name: 'tcol leaves a missing source to the checker', xml: '<tabu><tcol fun="Sum"/></tabu>', op: tabu({ tcols: [tcol({ fun: 'sum' })] }) },
  {
    name: 'tcol treats weight="" as no weight',
    xml: '<tabu><tcol fun="avg" source="p" weight=""/></tabu>',
    op: tabu({ tcols: [tcol({ fun: 'avg', source: 'p' })] }),
  },
  {
    name: 'tcol reads a weight expression',
    xml: '<tabu><tcol fun="wavg" source="p" weight="qty"/></tabu>',
    op: tabu({ tcols: [tcol({ fun: 'wavg', source: 'p', weight: 'qty' })] }),
  },
  {
    name: 'tabu reads cbreaks and <break> sorts (the cross-tab example)',
    xml: '<tabu label="Sales by Month" breaks="month" cbreaks="year"><tcol source="xsales" fun="sum" label="Total sale"/><break col="month" sort="up"/><break col="year" sort="down"/></tabu>',
    op: tabu({
      breaks: ['month'],
      cbreaks: ['year'],
      label: 'Sales by Month',
      tcols: [tcol({ fun: 'sum', source: 'xsales', meta: { label: 'Total sale' } })],
      breakSpecs: [brk({ col: 'month' }), brk({ col: 'year', sort: 'down' })],
    }),
  },
  {
    name: 'break reads naorder, rename and relabel',
    xml: '<tabu breaks="store"><break col="Store" sort="none" naorder="last" rename="Shop" relabel="The shop"/></tabu>',
    op: tabu({ breaks: ['store'], breakSpecs: [brk({ col: 'store', sort: 'none', naorder: 'last', rename: 'shop', relabel: 'The shop' })] }),
  },
  {
    name: 'break defaults to sort up, N/A first',
    xml: '<tabu breaks="a"><break col="a"/></tabu>',
    op: tabu({ breaks: ['a'], breakSpecs: [brk({ col: 'a' })] }),
  },
  { name: 'tabu ignores a <note> among its children', xml: '<tabu><note>n</note><tcol fun="cnt"/></tabu>', op: tabu({ tcols: [tcol({})] }) },
  // link
  { name: 'link defaults col2 to col and type to exact', xml: '<link table2="T2" col="K"/>', op: link({}) },
  {
    name: 'link reads every attribute',
    xml: '<link table2="pub.demo.retail.products" col="sku" col2="Sku_Id" cols="sku_id, description,dept" suffix="_P" type="select" label="Products" shift="0" after="1"/>',
    op: link({
      table2: 'pub.demo.retail.products',
      col: ['sku'],
      col2: ['sku_id'],
      cols: ['sku_id', 'description', 'dept'],
      suffix: '_p',
      type: 'select',
      label: 'Products',
    }),
  },
  { name: 'link pairs several key columns', xml: '<link table2="t2" col="a,b" col2="x, y"/>', op: link({ col: ['a', 'b'], col2: ['x', 'y'] }) },
  { name: 'link accepts type="include"', xml: '<link table2="t2" col="k" type="include"/>', op: link({ type: 'include' }) },
  { name: 'link accepts type="exclude"', xml: '<link table2="t2" col="k" type="exclude"/>', op: link({ type: 'exclude' }) },
  { name: 'link accepts type="exact"', xml: '<link table2="t2" col="k" type="exact"/>', op: link({}) },
  {
    name: 'link parses its children as the foreign pipeline (the reference example)',
    xml: '<link table2="T2" col="file_date" col2="file_date" type="select">\n<colord cols="file_date"/>\n<tabu breaks="file_date"><break col="file_date" sort="down"/><tcol source="file_date" fun="cnt"/></tabu>\n<sel value="i_()=1"/>\n</link>',
    op: link({
      col: ['file_date'],
      col2: ['file_date'],
      type: 'select',
      ops: [
        { kind: 'Colord', cols: ['file_date'], hide: [], hard: false },
        tabu({ breaks: ['file_date'], breakSpecs: [brk({ col: 'file_date', sort: 'down' })], tcols: [tcol({ source: 'file_date' })] }),
        { kind: 'Sel', cond: '(= i_() 1)' },
      ],
    }),
  },
  {
    name: 'link nests a link in its pipeline',
    xml: '<link table2="t2" col="k"><link table2="t3" col="j"><sel value="x=1"/></link></link>',
    op: link({ ops: [link({ table2: 't3', col: ['j'], col2: ['j'], ops: [{ kind: 'Sel', cond: '(= x 1)' }] })] }),
  },
  // merge
  { name: 'merge takes table2', xml: '<merge table2="Pub.Z"/>', op: { kind: 'Merge', table2: 'pub.z', ops: [] } },
  {
    name: 'merge parses its children as the pipeline of table2',
    xml: '<merge table2="z"><sel value="a=1"/></merge>',
    op: { kind: 'Merge', table2: 'z', ops: [{ kind: 'Sel', cond: '(= a 1)' }] },
  },
]

const REFUSED: readonly { name: string; xml: string; code?: string; line: number; parts: string[] }[] = [
  {
    name: 'an unknown operation, listing the supported ones',
    xml: '<base table="t"/>\n<frobnicate/>',
    line: 2,
    parts: ['Line 2: unknown operation <frobnicate>', 'supported operations: base, table, sel'],
  },
  { name: 'an unknown operation named like an Object method', xml: '<constructor/>', line: 1, parts: ['unknown operation <constructor>'] },
  { name: '<tcol> outside <tabu>', xml: '<tcol fun="cnt"/>', line: 1, parts: ['<tcol> is only allowed inside <tabu>'] },
  { name: '<and> outside <sel>', xml: '<and value="a"/>', line: 1, parts: ['<and> is only allowed inside <sel>'] },
  { name: '<directory>', xml: '<directory folder="pub.demo"/>', line: 1, parts: ['<directory> is not supported', 'get_names_in_dir', 'api/dbm'] },
  { name: '<cols table2>', xml: '<cols table2="t"/>', line: 1, parts: ['<cols table2> is not supported', 'inline <table>'] },
  { name: '<dynamic> as an operation', xml: '<dynamic/>', line: 1, parts: ['<dynamic> belongs to a dynamic instance'] },
  { name: 'base without table', xml: '\n<base/>', line: 2, parts: ['Line 2: <base> needs a table attribute'] },
  { name: 'base with an empty table', xml: '<base table=" "/>', line: 1, parts: ['<base> needs a table attribute'] },
  { name: 'table with data but no cols', xml: '<table>1,2</table>', line: 1, parts: ['<table> with data needs a cols attribute'] },
  { name: 'table with a short row', xml: '<table cols="a,b">1,2;3</table>', line: 1, parts: ['row 2 of <table> has 1 value, but cols names 2 columns'] },
  { name: 'table with a long row', xml: '<table cols="a">1,2</table>', line: 1, parts: ['row 1 of <table> has 2 values, but cols names 1 column'] },
  { name: 'table with an unclosed quote', xml: `<table cols="a">'abc</table>`, line: 1, parts: ['a quoted value in <table> is never closed'] },
  { name: 'table with text after a quoted cell', xml: `<table cols="a">'a'b</table>`, line: 1, parts: ["unexpected 'b' after the quoted value 'a'"] },
  { name: 'table with depth and data', xml: '<table depth="2">1</table>', line: 1, parts: ['cannot be combined with cols or data'] },
  { name: 'table with a negative depth', xml: '<table depth="-1"/>', line: 1, parts: ['<table depth> must be a whole number'] },
  { name: 'table with format="xml" and no <cols>', xml: '<table format="xml"/>', line: 1, parts: ['<table format="xml"> needs a <cols> element'] },
  { name: 'table with an unknown format', xml: '<table format="json"/>', line: 1, parts: ['<table format> must be csv or empty or xml'] },
  { name: 'table with an element inside', xml: '<table cols="a"><sel value="a"/></table>', line: 1, parts: ['<sel> cannot appear inside <table>'] },
  { name: 'sel without value or children', xml: '<sel/>', line: 1, parts: ['<sel> needs a value attribute'] },
  { name: 'sel with an empty value', xml: '<sel value=""/>', line: 1, parts: ['<sel> needs a value attribute'] },
  { name: 'sel mixing <and> and <or> at one level', xml: '<sel><and value="a"/>\n<or value="b"/></sel>', line: 2, parts: ['mixes <and> and <or>'] },
  { name: 'sel with both a value and children', xml: '<sel value="a"><and value="b"/></sel>', line: 1, parts: ['both a value and <and> children'] },
  { name: 'an <or> with neither value nor children', xml: '<sel><or/></sel>', line: 1, parts: ['<or> needs a value attribute'] },
  { name: 'sel with another element inside', xml: '<sel><willbe name="a" value="1"/></sel>', line: 1, parts: ['<willbe> cannot appear inside <sel>'] },
  { name: 'sel with expand', xml: '<sel value="n" expand="1"/>', line: 1, parts: ['<sel expand> is not supported', 'rather than guess', 'type="expand"'] },
  { name: 'sel with sample', xml: '<sel value="n" sample="10"/>', line: 1, parts: ['<sel sample> is not supported', 'mod(i_();n)=1'] },
  { name: 'sel with sample', xml: '<sel value="n" sample="10"/>', line: 1, parts: ['<sel sample> is not supported'] },
  { name: 'willbe without name', xml: '<willbe value="1"/>', line: 1, parts: ['<willbe> needs a name attribute'] },
  { name: 'willbe without value', xml: '<willbe name="a"/>', line: 1, parts: ['<willbe> needs a value attribute'] },
  { name: 'willbe with a name that is not a column name', xml: '<willbe name="my col" value="1"/>', line: 1, parts: ['is not a valid column name'] },
  { name: 'willbe with a non-numeric width', xml: '<willbe name="a" value="1" width="wide"/>', line: 1, parts: ['<willbe width> must be a whole number'] },
  { name: 'willbe with fixed neither 1 nor 0', xml: '<willbe name="a" value="1" fixed="yes"/>', line: 1, parts: ['<willbe fixed> must be 1 or 0'] },
  { name: 'colord with a bad hard value', xml: '<colord hard="2"/>', line: 1, parts: ['<colord hard> must be 1 or 0'] },
  { name: 'col without name', xml: '<col label="x"/>', line: 1, parts: ['<col> needs a name attribute'] },
  { name: 'sort without col', xml: '<sort dir="up"/>', line: 1, parts: ['<sort> needs a col attribute'] },
  { name: 'sort with both col and cols', xml: '<sort col="a" cols="b"/>', line: 1, parts: ['either col or cols'] },
  { name: 'sort with an unknown dir', xml: '<sort col="a" dir="asc"/>', line: 1, parts: ["<sort dir> must be up or down, not 'asc'"] },
  { name: 'tcol without fun', xml: '<tabu>\n<tcol source="a"/></tabu>', line: 2, parts: ['<tcol> needs a fun attribute'] },
  { name: 'tcol with an invalid name', xml: '<tabu><tcol fun="cnt" name="1st"/></tabu>', line: 1, parts: ['is not a valid column name'] },
  {
    name: 'a break on a column that is not a break',
    xml: '<tabu breaks="a">\n<break col="b"/></tabu>',
    line: 2,
    parts: ['<break col="b"> is not one of the tabulation\'s breaks'],
  },
  { name: 'a break given twice', xml: '<tabu breaks="a"><break col="a"/><break col="a"/></tabu>', line: 1, parts: ['<break col="a"> is given twice'] },
  {
    name: 'a break with an unknown sort',
    xml: '<tabu breaks="a"><break col="a" sort="asc"/></tabu>',
    line: 1,
    parts: ['<break sort> must be up or down or none'],
  },
  {
    name: 'a break with an unknown naorder',
    xml: '<tabu breaks="a"><break col="a" naorder="middle"/></tabu>',
    line: 1,
    parts: ['<break naorder> must be first or last'],
  },
  {
    name: 'rollup of an unknown type',
    xml: '<tabu breaks="a">\n<rollup type="tree"/></tabu>',
    line: 2,
    parts: ["<rollup type> must be hier or cube, not 'tree'"],
  },
  { name: 'an unknown element in tabu', xml: '<tabu><sel value="a"/></tabu>', line: 1, parts: ['<sel> cannot appear inside <tabu>'] },
  { name: 'link without table2', xml: '<link col="a"/>', line: 1, parts: ['<link> needs a table2 attribute'] },
  { name: 'link without col', xml: '<link table2="t"/>', line: 1, parts: ['<link> needs a col attribute'] },
  { name: 'link with unequal col and col2', xml: '<link table2="t" col="a,b" col2="x"/>', line: 1, parts: ['pairs col (2 columns) with col2 (1)'] },
  {
    name: 'link type side',
    xml: '<link table2="t" col="a" type="side"/>',
    line: 1,
    parts: ['<link type="side"> is not supported', 'without saying how rows are paired'],
  },
  { name: 'link shift other than 0', xml: '<link table2="t" col="a" shift="-1"/>', line: 1, parts: ['<link shift="-1"> is not supported', 'only shift="0"'] },
  {
    name: 'an unknown link type',
    xml: '<link table2="t" col="a" type="left"/>',
    line: 1,
    parts: ['<link type> must be exact, select, include, exclude, asof, expand'],
  },
  { name: 'link with a non-zero shift', xml: '<link table2="t" col="a" shift="1"/>', line: 1, parts: ['<link shift="1"> is not supported'] },
  { name: 'link with an invalid suffix', xml: '<link table2="t" col="a" suffix="-x"/>', line: 1, parts: ['<link suffix="-x"> may only hold'] },
  { name: 'an unknown operation inside link', xml: '<link table2="t" col="a">\n<bogus/></link>', line: 2, parts: ['unknown operation <bogus>'] },
  { name: 'merge without table2', xml: '<merge><sel value="a"/></merge>', line: 1, parts: ['<merge> needs a table2 attribute'] },
  {
    name: 'a syntax error in a sel value, with the column inside the expression',
    xml: '<base table="t"/>\n<sel value="a = = 1"/>',
    code: 'EXPR_ERROR',
    line: 2,
    parts: ['Line 2, <sel value>: ', 'at column 5 of the expression'],
  },
  {
    name: 'a syntax error in a willbe value',
    xml: '<willbe name="a" value="f(1;"/>',
    code: 'EXPR_ERROR',
    line: 1,
    parts: ['Line 1, <willbe value>: ', 'of the expression'],
  },
  {
    name: 'a syntax error in a tcol source',
    xml: '<tabu>\n<tcol fun="sum" source="a+"/></tabu>',
    code: 'EXPR_ERROR',
    line: 2,
    parts: ['Line 2, <tcol source>: '],
  },
  {
    name: 'a syntax error in a nested <and>',
    xml: '<sel>\n<and value="a"/>\n<and value="(b"/></sel>',
    code: 'EXPR_ERROR',
    line: 3,
    parts: ['Line 3, <and value>: '],
  },
  { name: 'a variable outside braces', xml: '<sel value="@x=1"/>', code: 'EXPR_ERROR', line: 1, parts: ['Line 1, <sel value>: ', "Variable '@x'"] },
]

describe('toOps()', () => {
  describe('operations', () => {
    for (const c of BUILT) it(`builds: ${c.name}`, () => expect(op(c.xml)).to.deep.equal(c.op))
  })

  describe('errors', () => {
    for (const c of REFUSED) {
      it(`refuses ${c.name}`, () => {
        const err = opError(c.xml)
        expect(err.code).to.equal(c.code ?? 'CHECK_ERROR')
        expect(err.detail).to.include({ line: c.line })
        for (const part of c.parts) expect(err.message).to.include(part)
      })
    }
  })

  it('ignores <note> elements', () => {
    expect(plain(toOps(parseXml('<note>n</note><base table="t"/>').children.filter((n) => n.kind === 'Element')))).to.deep.equal([{ kind: 'Base', table: 't' }])
  })

  it('gives each operation the location of its element', () => {
    const [base, sel] = parseQuery('<base table="t"/>\n  <sel value="a"/>')
    expect(base.loc).to.deep.equal({ line: 1, col: 1 })
    expect(sel.loc).to.deep.equal({ line: 2, col: 3 })
  })

  it('keeps the position inside the expression in the error detail', () => {
    const err = opError('<base table="t"/>\n<sel value="a = = 1"/>')
    expect(err.detail).to.include({ line: 2, col: 1, attribute: 'value', exprLine: 1, exprCol: 5 })
  })

  it('keeps a break location for later checks', () => {
    const [t] = parseQuery('<tabu breaks="a">\n <break col="a"/></tabu>')
    expect(t.kind === 'Tabu' && t.breakSpecs[0].loc).to.deep.equal({ line: 2, col: 2 })
  })
})

describe('parseQuery()', () => {
  it('runs parse, block expansion and op building in one call', () => {
    const xml = `<library><block name="top" col="sales" n="3"><sort col="{@col}" dir="down"/><sel value="i_()<={@n}"/></block></library>
      <base table="{@tbl}"/>
      <insert block="top" n="5"/>`
    expect(plain(parseQuery(xml, { tbl: 'pub.demo.retail.item' }))).to.deep.equal([
      { kind: 'Base', table: 'pub.demo.retail.item' },
      { kind: 'Sort', keys: [{ col: 'sales', dir: 'down' }] },
      { kind: 'Sel', cond: '(<= i_() 5)' },
    ])
  })

  it('reads dynamic variables', () => {
    expect(plain(parseQuery('<base table="{@tbl}"/>', { tbl: 'Pub.X' }))).to.deep.equal([{ kind: 'Base', table: 'pub.x' }])
  })

  it('returns no operations for a query of notes and comments', () => {
    expect(parseQuery('<!-- c --><note>n</note>')).to.deep.equal([])
  })
})

describe('tableRefs()', () => {
  const CASES: readonly { name: string; xml: string; refs: string[] }[] = [
    { name: 'the base table', xml: '<base table="a.b"/><sel value="x"/>', refs: ['a.b'] },
    { name: 'no table for an inline table', xml: '<table depth="3"/>', refs: [] },
    { name: 'link and merge tables after the base, in order', xml: '<base table="a"/><link table2="b" col="k"/><merge table2="c"/>', refs: ['a', 'b', 'c'] },
    {
      name: 'tables of nested pipelines, after their link',
      xml: '<base table="a"/><link table2="b" col="k"><link table2="c" col="k"/></link><merge table2="d"><base table="e"/></merge>',
      refs: ['a', 'b', 'c', 'd', 'e'],
    },
    { name: 'each table once', xml: '<base table="a"/><link table2="A" col="k"/><link table2="b" col="k"><merge table2="a"/></link>', refs: ['a', 'b'] },
  ]
  for (const c of CASES) it(`lists ${c.name}`, () => expect(tableRefs(parseQuery(c.xml))).to.deep.equal(c.refs))
})
