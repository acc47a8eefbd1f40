/** shared/csv/read.ts, the one CSV reader of uploads: its grammar, its lines and its refusals. */
import { expect } from 'chai'
import { readCsv } from '../../shared/csv/read.js'
import { AppError } from '../../shared/errors.js'
import { csvRows } from '../helpers/csv-rows.js'

const cases: { name: string; text: string; rows: string[][] }[] = [
  {
    name: 'splits records on LF and fields on commas',
    text: 'a,b\n1,2\n',
    rows: [
      ['a', 'b'],
      ['1', '2'],
    ],
  },
  {
    name: 'splits records on CRLF',
    text: 'a,b\r\n1,2\r\n',
    rows: [
      ['a', 'b'],
      ['1', '2'],
    ],
  },
  {
    name: 'splits records on a lone CR',
    text: 'a,b\r1,2',
    rows: [
      ['a', 'b'],
      ['1', '2'],
    ],
  },
  {
    name: 'reads a last record without a line break',
    text: 'a,b\n1,2',
    rows: [
      ['a', 'b'],
      ['1', '2'],
    ],
  },
  { name: 'keeps commas inside quoted fields', text: '"x,y",z', rows: [['x,y', 'z']] },
  { name: 'turns doubled quotes into one quote', text: '"say ""hi""",z\n', rows: [['say "hi"', 'z']] },
  {
    name: 'keeps LF and CRLF inside quoted fields',
    text: '"one\ntwo",a\r\n"three\r\nfour",b\r\n',
    rows: [
      ['one\ntwo', 'a'],
      ['three\r\nfour', 'b'],
    ],
  },
  {
    name: 'reads empty fields, a trailing comma and an empty quoted field',
    text: 'a,,c\nd,e,\n"",f,g',
    rows: [
      ['a', '', 'c'],
      ['d', 'e', ''],
      ['', 'f', 'g'],
    ],
  },
  { name: 'reads a record of commas alone as empty fields', text: ',,\n', rows: [['', '', '']] },
  { name: 'skips empty lines', text: 'a\n\n\r\nb\n\n', rows: [['a'], ['b']] },
  {
    name: 'keeps spaces around fields (trimming only the header)',
    text: ' h , i \n a , b ',
    rows: [
      ['h', 'i'],
      [' a ', ' b '],
    ],
  },
  {
    name: 'drops a byte-order mark',
    text: '\uFEFFa,b\n1,2',
    rows: [
      ['a', 'b'],
      ['1', '2'],
    ],
  },
  { name: 'keeps a quote inside an unquoted field as a character', text: '5" pipe,x', rows: [['5" pipe', 'x']] },
  { name: 'reads a quoted field holding only a quote', text: '""""', rows: [['"']] },
]

const errors: { name: string; text: string; message: RegExp }[] = [
  { name: 'a quoted field without its closing quote', text: 'a,b\n1,"two\n3,4\n', message: /starts on line 2 has no closing quote/ },
  { name: 'text after a closing quote', text: 'a,b\n"x"y,2', message: /line 2: a closing quote must end the field, but "y" follows/ },
  { name: 'text after a closing quote on a later line of a multi-line field', text: '"a\nb"c', message: /line 2:/ },
  {
    name: 'a record with more values than the header',
    text: 'a,b\n1,2\n3,4,5\n',
    message: /Too many values: line 3 of the CSV has 3 values but the header names 2 columns/,
  },
  { name: 'a record with fewer values than the header', text: 'a,b\n\n1\n', message: /Too few values: line 3 of the CSV/ },
  { name: 'text with no header line', text: '\n\n', message: /first line must name the columns/ },
  { name: 'empty text', text: '', message: /first line must name the columns/ },
]

describe('readCsv()', () => {
  for (const c of cases) it(c.name, () => expect(csvRows(c.text)).to.deep.equal(c.rows))

  for (const c of errors) {
    it(`refuses ${c.name}, naming the line`, () => {
      let caught: unknown
      try {
        readCsv(c.text)
      } catch (err) {
        caught = err
      }
      expect(caught).to.be.instanceOf(AppError)
      expect((caught as AppError).code).to.equal('INVALID_PARAMETER')
      expect((caught as AppError).message).to.match(c.message)
    })
  }
})

describe('readCsv() lines and columns', () => {
  it('gives the line each row starts on, counting line breaks inside quotes', () => {
    const t = readCsv('h1,h2\r\n"a\r\nb",1\n\nc,2\n')
    expect(t.lines).to.deep.equal([2, 5])
    expect(t.cells).to.deep.equal([
      ['a\r\nb', 'c'],
      ['1', '2'],
    ])
  })

  it('separates the header line from the rows, column by column', () => {
    const t = readCsv('name,qty\nnut,3\nbolt,4\n')
    expect(t.header).to.deep.equal(['name', 'qty'])
    expect(t.cells).to.deep.equal([
      ['nut', 'bolt'],
      ['3', '4'],
    ])
  })
})
