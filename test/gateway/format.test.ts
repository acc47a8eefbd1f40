import { expect } from 'chai'
import type { ResultColumn, ResultSet } from '../../shared/protocol.js'
import type { ColumnMeta, ColumnSpec } from '../../shared/table.js'
import { NA_INT, columnMeta } from '../../shared/table.js'
import type { Format, Rendered } from '../../gateway/format/index.js'
import { dataOf } from '../helpers/columns.js'
import { randomStream } from '../../engine/demo/random.js'
import {
  TEXT_FORMATS,
  HEAD_ROWS,
  STREAM_THRESHOLD,
  collectBody,
  colsTable,
  escapeHtml,
  formatFromSuffix,
  parseFormat,
  renderHead,
  renderResult,
  renderValue,
} from '../../gateway/format/index.js'

type Cell = number | string | null

/** A result from specs and row-major cells; null means N/A in every type. */
function table(specs: readonly ColumnSpec[], rows: readonly (readonly Cell[])[]): ResultSet {
  const columns: ResultColumn[] = specs.map((spec, c) => {
    const cells = rows.map((row) => row[c])
    if (spec.type === 'text') return { kind: 'text', data: cells.map((v) => (v === null ? '' : String(v))) }
    if (spec.type === 'float') return { kind: 'float', data: Float64Array.from(cells, (v) => (v === null ? NaN : Number(v))) }
    return { kind: 'int', data: Int32Array.from(cells, (v) => (v === null ? NA_INT : Number(v))) }
  })
  return { cols: specs.map(columnMeta), columns, rowCount: rows.length }
}

/** The small mixed result used throughout: N/A in every type on the second row. */
function mixed(): ResultSet {
  return table(
    [
      { name: 'id', type: 'int' },
      { name: 'name', type: 'text', label: 'Full\nname' },
      { name: 'price', type: 'float' },
      { name: 'day', type: 'date' },
    ],
    [
      [1, 'apple', 1.5, 20240131],
      [22, null, null, null],
      [-3, 'kiwi fruit', 1234.567, 20231105],
    ],
  )
}

/**
 * renderResult's answer joined into one string whatever time the joining takes: these tests are of
 * the text, and a rendering slower than JOIN_BUDGET_MS (a cold start on a loaded machine) would
 * otherwise come as a stream (the tests "on large results" are of that choice).
 */
const joined = (result: ResultSet, format: Format, opts: Parameters<typeof renderResult>[2] = {}): Rendered =>
  renderResult(result, format, { ...opts, stream: false })

function isStream(r: Rendered): boolean {
  return typeof r.body !== 'string'
}

async function chunksOf(r: Rendered): Promise<string[]> {
  if (typeof r.body === 'string') return [r.body]
  const out: string[] = []
  for await (const chunk of r.body) out.push(String(chunk))
  return out
}

const HOSTILE = [
  '',
  '"',
  '\\',
  '\\"',
  '"quoted"',
  'back\\slash',
  '\u0000',
  '\b\f\n\r\t',
  '\u001f\u007f',
  '\u2028\u2029',
  '\ud800',
  '\udfff',
  'a\ud83d',
  '\ude00b',
  '\ud83d\ude00',
  'é',
  '日本語',
  '</script><script>alert(1)</script>',
  '{"json":true}',
  '\ufeff',
  'x'.repeat(300),
]
const SPECIAL_FLOATS = [1e21, -0, 0.1 + 0.2, 5e-324, Number.MAX_VALUE, -1e-7, 123456789.125, NaN, Infinity, -Infinity, 0]
const SPECIAL_INTS = [NA_INT, NA_INT + 1, 2147483647, 0, -1, 20240229]

function randomString(next: () => number): string {
  if (next() < 0.5) return HOSTILE[Math.floor(next() * HOSTILE.length)]
  let s = ''
  const n = Math.floor(next() * 12)
  // Any UTF-16 code unit, lone surrogates and controls included.
  for (let i = 0; i < n; i++) s += String.fromCharCode(Math.floor(next() * 0x10000))
  return s
}

function randomResult(seed: number, rowCount: number): ResultSet {
  const next = randomStream(seed)
  const specs: ColumnSpec[] = [
    { name: 'i', type: 'int' },
    { name: 'f', type: 'float' },
    { name: 's', type: 'text' },
    { name: 'd', type: 'date' },
    { name: 'we"ird\\na\u2028me', type: 'text' },
  ]
  const bits = new Uint32Array(2)
  const floats = new Float64Array(bits.buffer)
  const columns: ResultColumn[] = [
    {
      kind: 'int',
      data: Int32Array.from({ length: rowCount }, () =>
        next() < 0.3 ? SPECIAL_INTS[Math.floor(next() * SPECIAL_INTS.length)] : Math.floor(next() * 2 ** 32) - 2 ** 31,
      ),
    },
    {
      kind: 'float',
      data: Float64Array.from({ length: rowCount }, () => {
        if (next() < 0.4) return SPECIAL_FLOATS[Math.floor(next() * SPECIAL_FLOATS.length)]
        bits[0] = Math.floor(next() * 2 ** 32)
        bits[1] = Math.floor(next() * 2 ** 32)
        return floats[0]
      }),
    },
    { kind: 'text', data: Array.from({ length: rowCount }, () => randomString(next)) },
    { kind: 'int', data: Int32Array.from({ length: rowCount }, () => (next() < 0.2 ? NA_INT : 19000101 + Math.floor(next() * 1e6))) },
    { kind: 'text', data: Array.from({ length: rowCount }, () => randomString(next)) },
  ]
  return { cols: specs.map(columnMeta), columns, rowCount }
}

/** The JavaScript values the JSON shapes stand for, built independently of the renderer. */
function natural(result: ResultSet, from = 0, to = result.rowCount) {
  const value = (col: ResultColumn, r: number): Cell => {
    const v = dataOf(col)[r]
    if (col.kind === 'int') return v === NA_INT ? null : (v as number)
    if (col.kind === 'float') return Number.isFinite(v) ? (v as number) : null
    return v as string
  }
  const names = result.cols.map((m) => m.name)
  const rows: Cell[][] = []
  for (let r = from; r < to; r++) rows.push(result.columns.map((col) => value(col, r)))
  return {
    json: Object.fromEntries(names.map((n, c) => [n, rows.map((row) => row[c])])),
    rows: { cols: names, rows },
    keyed: rows.map((row) => Object.fromEntries(names.map((n, c) => [n, row[c]]))),
  }
}

describe('renderResult()', () => {
  describe('on a small mixed result with N/A in every type', () => {
    it('renders column-major JSON with null for numeric N/A and an empty string for text N/A', () => {
      const r = joined(mixed(), 'json')
      expect(r.type).to.equal('application/json; charset=utf-8')
      expect(r.body).to.equal('{"id":[1,22,-3],"name":["apple","","kiwi fruit"],"price":[1.5,null,1234.567],"day":[20240131,null,20231105]}')
    })

    it('renders json.rows as cols plus row arrays', () => {
      const r = joined(mixed(), 'json.rows')
      expect(r.type).to.equal('application/json; charset=utf-8')
      expect(JSON.parse(r.body as string)).to.deep.equal({
        cols: ['id', 'name', 'price', 'day'],
        rows: [
          [1, 'apple', 1.5, 20240131],
          [22, '', null, null],
          [-3, 'kiwi fruit', 1234.567, 20231105],
        ],
      })
    })

    it('renders json.keyed as a list of row objects', () => {
      const r = joined(mixed(), 'json.keyed')
      expect(r.body).to.equal(
        '[{"id":1,"name":"apple","price":1.5,"day":20240131},{"id":22,"name":"","price":null,"day":null},' +
          '{"id":-3,"name":"kiwi fruit","price":1234.567,"day":20231105}]',
      )
    })

    it('renders an aligned text table with numbers right-aligned, dates as type:date shows them (mm/dd/yy) and N/A blank', () => {
      const r = joined(mixed(), 'text')
      expect(r.type).to.equal('text/plain; charset=utf-8')
      expect(r.body).to.equal(
        'id  name          price       day\n' +
          '--  ----------  -------  --------\n' +
          ' 1  apple          1.50  01/31/24\n' +
          '22\n' +
          '-3  kiwi fruit  1234.57  11/05/23\n',
      )
    })

    it('renders a complete HTML page with labels, tooltips, the row count and the links', () => {
      const links = [
        { label: 'text', href: 'api/run/!data:text' },
        { label: 'json', href: 'api/run/!data:json' },
      ]
      const r = joined(mixed(), 'html', { page: { title: 'My result', links } })
      const html = r.body as string
      expect(r.type).to.equal('text/html; charset=utf-8')
      expect(html.startsWith('<!doctype html>\n')).to.equal(true)
      expect(html).to.include('<meta charset="utf-8">')
      expect(html).to.include('<title>My result</title>')
      expect(html).to.include('<link rel="stylesheet" href="/ui/workbench.css">')
      expect(html).to.include('<th title="name">Full<br>name</th>')
      expect(html).to.include('<thead>').and.include('<tbody>')
      expect(html).to.include('<p>3 rows</p>')
      expect(html).to.include('<a href="api/run/!data:text">text</a>')
      expect(html).to.include('<a href="api/run/!data:json">json</a>')
      expect(html).to.include('<tr><td class="n">22</td><td></td><td class="n"></td><td class="n"></td></tr>')
      expect(html).to.include('<td class="n">01/31/24</td>')
      expect(html).to.not.match(/<script|<style|\bsrc=|https?:/)
      expect(html.endsWith('</html>\n')).to.equal(true)
    })
  })

  describe('with a row range', () => {
    it('selects the half-open range in every JSON shape', () => {
      const range = { from: 1, to: 3 }
      const want = natural(mixed(), 1, 3)
      expect(joined(mixed(), 'json', { range }).body).to.equal(JSON.stringify(want.json))
      expect(joined(mixed(), 'json.rows', { range }).body).to.equal(JSON.stringify(want.rows))
      expect(joined(mixed(), 'json.keyed', { range }).body).to.equal(JSON.stringify(want.keyed))
    })

    it('sizes text columns from the selected rows only', () => {
      const body = joined(mixed(), 'text', { range: { from: 0, to: 1 } }).body
      expect(body).to.equal('id  name   price       day\n--  -----  -----  --------\n 1  apple   1.50  01/31/24\n')
    })

    it('renders an empty range as empty arrays and a header-only table', () => {
      const range = { from: 2, to: 2 }
      expect(joined(mixed(), 'json', { range }).body).to.equal('{"id":[],"name":[],"price":[],"day":[]}')
      expect(joined(mixed(), 'json.rows', { range }).body).to.equal('{"cols":["id","name","price","day"],"rows":[]}')
      expect(joined(mixed(), 'json.keyed', { range }).body).to.equal('[]')
      expect(joined(mixed(), 'text', { range }).body).to.equal('id  name  price  day\n--  ----  -----  ---\n')
    })

    it('says which rows an HTML page shows', () => {
      const html = joined(mixed(), 'html', { range: { from: 1, to: 3 } }).body as string
      expect(html).to.include('<p>3 rows, showing rows 1\u20132</p>')
      expect(html).to.not.include('apple')
    })

    it('clips a range that runs past the end', () => {
      expect(joined(mixed(), 'json', { range: { from: 2, to: 99 } }).body).to.equal('{"id":[-3],"name":["kiwi fruit"],"price":[1234.567],"day":[20231105]}')
    })
  })

  describe('with no columns', () => {
    it('renders valid empty shapes', () => {
      const empty: ResultSet = { cols: [], columns: [], rowCount: 0 }
      expect(joined(empty, 'json').body).to.equal('{}')
      expect(joined(empty, 'json.rows').body).to.equal('{"cols":[],"rows":[]}')
      expect(joined(empty, 'json.keyed').body).to.equal('[]')
      expect(joined(empty, 'text').body).to.equal('\n\n')
    })
  })

  describe('on large results', () => {
    const big = randomResult(42, 10_000)

    for (const format of TEXT_FORMATS) {
      it(`streams ${format} byte-identically to the one-string rendering`, async () => {
        const streamed = renderResult(big, format)
        expect(isStream(streamed)).to.equal(true)
        const whole = renderResult(big, format, { stream: false })
        expect(whole.body).to.be.a('string')
        expect(await collectBody(streamed)).to.equal(whole.body)
      })
    }

    it('streams in chunks of a few hundred rows', async () => {
      const chunks = await chunksOf(renderResult(big, 'json.rows'))
      expect(chunks.length).to.be.greaterThan(10)
      const rows = chunks.map(
        (c) =>
          JSON.parse(
            `[${c
              .replace(/^\{"cols":[\s\S]*?"rows":\[/, '')
              .replace(/\]\}$/, '')
              .replace(/^,/, '')}]`,
          ).length,
      )
      expect(Math.max(...rows)).to.be.at.most(500)
      expect(rows.reduce((a, b) => a + b, 0)).to.equal(10_000)
    })

    it('lets the event loop run between chunks', async () => {
      const immediates: number[] = []
      let n = 0
      for await (const _ of renderResult(big, 'text').body as AsyncIterable<string>) {
        setImmediate(() => immediates.push(n))
        n++
      }
      // Each immediate scheduled after a chunk ran before the next chunk was produced.
      expect(immediates.length).to.be.at.least(n - 1)
      expect(immediates.slice(0, 5)).to.deep.equal([1, 2, 3, 4, 5])
    })

    it('can be iterated twice with the same output', async () => {
      const r = renderResult(big, 'json')
      expect(await collectBody(r)).to.equal(await collectBody(r))
    })

    it('returns one string at the threshold and a stream just above it', () => {
      // Once untimed: a cold first rendering can take longer than JOIN_BUDGET_MS and stream for that.
      renderResult(big, 'json', { range: { from: 0, to: STREAM_THRESHOLD } })
      expect(isStream(renderResult(big, 'json', { range: { from: 0, to: STREAM_THRESHOLD } }))).to.equal(false)
      expect(isStream(renderResult(big, 'json', { range: { from: 0, to: STREAM_THRESHOLD + 1 } }))).to.equal(true)
    })
  })

  describe('JSON output', () => {
    for (const seed of [1, 2, 3]) {
      it(`equals JSON.stringify of the same value on random hostile data (seed ${seed})`, async () => {
        const result = randomResult(seed, 3000)
        const want = natural(result)
        expect(await collectBody(renderResult(result, 'json'))).to.equal(JSON.stringify(want.json))
        expect(await collectBody(renderResult(result, 'json.rows'))).to.equal(JSON.stringify(want.rows))
        expect(await collectBody(renderResult(result, 'json.keyed'))).to.equal(JSON.stringify(want.keyed))
      })
    }

    it('writes 1e21, -0 and 0.1+0.2 as JSON.stringify does', () => {
      const result = table([{ name: 'x', type: 'float' }], [[1e21], [-0], [0.1 + 0.2], [Infinity], [-Infinity]])
      expect(joined(result, 'json').body).to.equal('{"x":[1e+21,0,0.30000000000000004,null,null]}')
    })

    it('escapes quotes, backslashes, control characters and lone surrogates in strings', () => {
      const result = table([{ name: 's', type: 'text' }], [['a"b'], ['c\\d'], ['\u0001\n'], ['\ud800'], ['\ud83d\ude00']])
      expect(joined(result, 'json').body).to.equal('{"s":["a\\"b","c\\\\d","\\u0001\\n","\\ud800","\ud83d\ude00"]}')
    })
  })

  describe('HTML escaping', () => {
    const evilLabel = 'x" onmouseover="alert(1)'
    const evilHref = '" onmouseover="alert(2)'
    const result = table([{ name: 'evil', type: 'text', label: evilLabel }], [['<script>alert(1)</script>'], ["it's & <b>"]])
    const page = { title: '<script>t</script>', links: [{ label: '<i>json</i>', href: evilHref }] }

    it('never lets a value, label, title or link break out of its element or attribute', () => {
      const html = joined(result, 'html', { page }).body as string
      expect(html).to.not.include('<script>')
      expect(html).to.not.include('" onmouseover=')
      expect(html).to.not.include('<i>')
      expect(html).to.not.include('<b>')
      expect(html).to.include('&lt;script&gt;alert(1)&lt;/script&gt;')
      expect(html).to.include('it&#39;s &amp; &lt;b&gt;')
      expect(html).to.include('<a href="&quot; onmouseover=&quot;alert(2)">&lt;i&gt;json&lt;/i&gt;</a>')
      expect(html).to.include('>x&quot; onmouseover=&quot;alert(1)</th>')
    })

    it('escapes the same way in !head pages and value pages', () => {
      const head = renderHead(result, 'run', 'html', HEAD_ROWS, page).body as string
      const value = renderValue({ msg: '<script>x</script>', [evilLabel]: 1 }, 'html', page).body as string
      for (const html of [head, value]) {
        expect(html).to.not.include('<script>')
        expect(html).to.not.include('" onmouseover=')
      }
    })
  })
})

describe('escapeHtml()', () => {
  it('escapes all five special characters', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).to.equal('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;')
  })
})

describe('cell display', () => {
  it('uses dec:N from a messy format string, six trimmed decimals without one, and no sign on zero', () => {
    const specs: ColumnSpec[] = [
      { name: 'a', type: 'float', format: ' TYPE : num ;; width:8; DEC : 3 ;junk' },
      { name: 'b', type: 'float', format: 'type:num;dec:x' },
    ]
    const result = table(specs, [
      [2, 2],
      [-0.0001, 0.1 + 0.2],
      [1 / 3, 0.000123456789],
      [null, 1e-7],
    ])
    expect(joined(result, 'text').body).to.equal(
      '    a            b\n' + '-----  -----------\n' + '2.000            2\n' + '0.000          0.3\n' + '0.333  0.000123457\n' + '              1e-7\n',
    )
  })

  it('parses format strings into trimmed, lower-cased keys, the first of a repeated key counting', () => {
    expect([...parseFormat(' type:num ; Width: 12;dec:2;;bad;dec:4')]).to.deep.equal([
      ['type', 'num'],
      ['width', '12'],
      ['dec', '2'],
    ])
    // 1010data's rule: a repeated key is dropped, the first occurrence wins.
    expect([...parseFormat('type:num;type:char;width:3')]).to.deep.equal([
      ['type', 'num'],
      ['width', '3'],
    ])
  })

  it('shows a value through the first of a repeated format key, in the text view', () => {
    const result = table([{ name: 'a', type: 'float', format: 'type:num;dec:1;width:6;dec:4' }], [[2.25], [1]])
    expect(joined(result, 'text').body).to.equal('  a\n---\n2.3\n1.0\n')
  })

  it('shows a date column value that is not a date as the plain integer', () => {
    const result = table([{ name: 'd', type: 'date' }], [[20241301], [7]])
    expect(joined(result, 'text').body).to.equal('       d\n--------\n20241301\n       7\n')
  })

  it('keeps text table lines intact when a value holds a newline or tab', () => {
    const result = table([{ name: 's', type: 'text' }], [['a\nb\tc']])
    expect(joined(result, 'text').body).to.equal('s\n-----\na b c\n')
  })
})

describe('colsTable()', () => {
  const cols: ColumnMeta[] = mixed().cols.slice()

  it('reports name, label, desc, type, fixed, width and format for run', async () => {
    const body = await collectBody(joined(colsTable(cols, 'run'), 'json'))
    expect(JSON.parse(body)).to.deep.equal({
      name: ['id', 'name', 'price', 'day'],
      label: ['id', 'Full\nname', 'price', 'day'],
      desc: ['', '', '', ''],
      type: ['i', 'a', 'f', 'i'],
      fixed: [0, 0, 0, 0],
      width: [10, 16, 12, 10],
      format: ['type:num;width:10', 'type:char;width:16', 'type:num;width:12;dec:2', 'type:date;width:10'],
    })
    expect(Object.keys(JSON.parse(body))).to.deep.equal(['name', 'label', 'desc', 'type', 'fixed', 'width', 'format'])
  })

  it('reports only name, label and width for sql', () => {
    expect(joined(colsTable(cols, 'sql'), 'json').body).to.equal(
      '{"name":["id","name","price","day"],"label":["id","Full\\nname","price","day"],"width":[10,16,12,10]}',
    )
  })

  it('renders as a text table like any other result', () => {
    expect(joined(colsTable(cols, 'sql'), 'text').body).to.equal(
      'name   label      width\n' +
        '-----  ---------  -----\n' +
        'id     id            10\n' +
        'name   Full name     16\n' +
        'price  price         12\n' +
        'day    day           10\n',
    )
  })
})

describe('renderHead()', () => {
  it('gives cols, the total row count and column-major data under json', () => {
    const body = renderHead(mixed(), 'sql', 'json').body as string
    expect(body).to.equal(
      '{"cols":{"name":["id","name","price","day"],"label":["id","Full\\nname","price","day"],"width":[10,16,12,10]},' +
        '"rows":3,"data":{"id":[1,22,-3],"name":["apple","","kiwi fruit"],"price":[1.5,null,1234.567],"day":[20240131,null,20231105]}}',
    )
  })

  it('gives row-major data under json.rows and keeps cols column-major', () => {
    const parsed = JSON.parse(renderHead(mixed(), 'run', 'json.rows').body as string)
    expect(Object.keys(parsed)).to.deep.equal(['cols', 'rows', 'data'])
    expect(parsed.cols.name).to.deep.equal(['id', 'name', 'price', 'day'])
    expect(parsed.cols.format).to.have.length(4)
    expect(parsed.rows).to.equal(3)
    expect(parsed.data).to.deep.equal(natural(mixed()).rows)
  })

  it('gives a list of row objects under json.keyed', () => {
    const parsed = JSON.parse(renderHead(mixed(), 'sql', 'json.keyed').body as string)
    expect(parsed.data).to.deep.equal(natural(mixed()).keyed)
  })

  it('limits data to the first HEAD_ROWS rows but reports the total', async () => {
    const big = randomResult(7, 1200)
    const parsed = JSON.parse(await collectBody(renderHead(big, 'run', 'json.rows')))
    expect(HEAD_ROWS).to.equal(500)
    expect(parsed.rows).to.equal(1200)
    // Compared as JSON text: deep equality tells -0 from 0, which JSON does not keep.
    expect(JSON.stringify(parsed.data)).to.equal(JSON.stringify(natural(big, 0, 500).rows))
    expect(JSON.parse(renderHead(big, 'run', 'json', 2).body as string).data.i).to.have.length(2)
  })

  it('renders text as the cols table, a blank line, the row count, a blank line and the data', () => {
    const body = renderHead(table([{ name: 'a', type: 'int' }], [[1], [2]]), 'sql', 'text').body
    expect(body).to.equal('name  label  width\n----  -----  -----\na     a         10\n\n2 rows\n\na\n-\n1\n2\n')
  })

  it('renders one HTML page with the columns, the row count and the data', () => {
    const html = renderHead(mixed(), 'run', 'html').body as string
    expect(html.match(/<!doctype html>/g)).to.have.length(1)
    expect(html.match(/<table>/g)).to.have.length(2)
    expect(html).to.include('<p>3 rows</p>')
    expect(html).to.include('<td>type:num;width:12;dec:2</td>')
    expect(html).to.include('<td>kiwi fruit</td>')
  })
})

describe('renderValue()', () => {
  it('renders plain JSON under every json format', () => {
    for (const format of ['json', 'json.rows', 'json.keyed'] as Format[]) {
      const r = renderValue({ tag: 7 }, format)
      expect(r.type).to.equal('application/json; charset=utf-8')
      expect(r.body).to.equal('{"tag":7}')
    }
    expect(renderValue(42, 'json').body).to.equal('42')
    expect(renderValue(undefined, 'json').body).to.equal('null')
  })

  it('renders a number or string as its text and anything else as indented JSON under text', () => {
    expect(renderValue(42, 'text').body).to.equal('42\n')
    expect(renderValue('done', 'text').body).to.equal('done\n')
    expect(renderValue({ rc: 0, value: [1] }, 'text').body).to.equal('{\n  "rc": 0,\n  "value": [\n    1\n  ]\n}\n')
  })

  it('renders a flat object as a definition list and anything else in <pre> under html', () => {
    const links = [{ label: 'json', href: 'api/new:json' }]
    const flat = renderValue({ uid: 'csmith', sid: 956151005 }, 'html', { links }).body as string
    expect(flat).to.include('<dl>\n<dt>uid</dt><dd>csmith</dd>\n<dt>sid</dt><dd>956151005</dd>\n</dl>')
    expect(flat).to.include('<a href="api/new:json">json</a>')
    const nested = renderValue({ rc: 0, value: [['dir'], ['a&b']] }, 'html').body as string
    expect(nested).to.include('<pre>{\n  &quot;rc&quot;: 0,')
    expect(nested).to.include('a&amp;b')
    expect(nested.startsWith('<!doctype html>')).to.equal(true)
  })
})

describe('formatFromSuffix()', () => {
  it('maps a missing suffix to html', () => {
    expect(formatFromSuffix(null)).to.equal('html')
  })

  it('accepts every known suffix as itself', () => {
    for (const f of ['json', 'json.rows', 'json.keyed', 'text', 'html']) expect(formatFromSuffix(f)).to.equal(f)
  })

  it('returns null for unknown suffixes', () => {
    for (const f of ['', 'xml', 'JSON', 'json.', 'json.cols', 'toString', '__proto__']) expect(formatFromSuffix(f)).to.equal(null)
  })
})
