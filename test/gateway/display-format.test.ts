import { expect } from 'chai'
import { displayFormatter, displaySpec, type DisplayColumn } from '../../gateway/format/display/index.js'
import { decimalRounded, fixedDecimals, groupThousands } from '../../gateway/format/display/numbers.js'

/** The display text of one value in a column of `kind` with `format` (and a cut width). */
function show(kind: string, format: string, value: unknown, cutAt: number | null = null): string {
  const column: DisplayColumn = { kind, format, cutAt }
  return displayFormatter(column)(value)
}

describe('display formats (gateway/format/display)', () => {
  describe('examples from 1010data documentation', () => {
    // docs.1010data.com "Data types and display formats": 20031115 and 224556.
    it('shows 20031115 as 11/15/03 with date and 11/15/2003 with date4y', () => {
      expect(show('int', 'type:date', 20031115)).to.equal('11/15/03')
      expect(show('int', 'type:date4y', 20031115)).to.equal('11/15/2003')
    })

    it('shows 224556 as 10:45:56p with hms12 and 22:46 with hm24', () => {
      expect(show('int', 'type:hms12', 224556)).to.equal('10:45:56p')
      expect(show('int', 'type:hm24', 224556)).to.equal('22:46')
    })

    // docs.1010data.com "Display formats".
    it('cuts an overlong value to width-2 characters and " >" (width:4: Example is "Ex >")', () => {
      expect(show('text', 'type:char;width:4', 'Example', 4)).to.equal('Ex >')
      expect(show('text', 'type:char;width:5', 'Tabulate', 5)).to.equal('Tab >')
    })

    it('pads currency before the $ with a fill, and between $ and digits with 0', () => {
      expect(show('float', 'type:currency;width:14;padwith:*', 1234)).to.equal('*****$1,234.00')
      expect(show('float', 'type:currency;width:14;padwith:0', 1234)).to.equal('$000001,234.00')
    })

    it('gives an integer a point and dec zeros', () => {
      expect(show('int', 'type:num;dec:2', 1234567)).to.equal('1234567.00')
      expect(show('int', 'type:num;dec:0', 12)).to.equal('12')
    })

    it('shows 1234.55574 as 1,234.56 with commas and two decimals', () => {
      expect(show('float', 'type:commas;dec:2', 1234.55574)).to.equal('1,234.56')
    })

    it('keeps the first of a repeated key (type:num;type:char;width:3 is type:num;width:3)', () => {
      expect(displaySpec('type:num;type:char;width:3')).to.include({ type: 'num', width: 3 })
      expect(show('float', 'type:pct;type:num;dec:1', 0.5)).to.equal('50.0%')
    })
  })

  describe('N/A', () => {
    for (const format of ['', 'type:num;dec:2', 'type:currency;width:10;padwith:*', 'type:pct', 'type:date', 'type:hms12', 'type:char;width:3']) {
      it(`shows null, NaN and infinities as empty under "${format}"`, () => {
        for (const kind of ['int', 'float', 'text', 'date']) {
          expect(show(kind, format, null, 3)).to.equal('')
          expect(show(kind, format, undefined)).to.equal('')
        }
        expect(show('float', format, Number.NaN)).to.equal('')
        expect(show('float', format, Number.POSITIVE_INFINITY)).to.equal('')
        expect(show('float', format, Number.NEGATIVE_INFINITY)).to.equal('')
      })
    }
  })

  describe('num, nocommas, commas and no type', () => {
    it('shows ints exactly, floats with six trimmed decimals without dec', () => {
      expect(show('int', 'type:num', -42)).to.equal('-42')
      expect(show('int', '', 0)).to.equal('0')
      expect(show('float', '', 2.5)).to.equal('2.5')
      expect(show('float', '', 1 / 3)).to.equal('0.333333')
      expect(show('float', '', 0.000123456789)).to.equal('0.000123457')
      expect(show('float', 'type:nocommas', 1234567.5)).to.equal('1234567.5')
    })

    it('rounds at dec half away from zero on the decimal the value is written as', () => {
      expect(show('float', 'dec:2', 1.005)).to.equal('1.01')
      expect(show('float', 'dec:2', -1.005)).to.equal('-1.01')
      expect(show('float', 'dec:2', 2.675)).to.equal('2.68')
      expect(show('float', 'dec:0', 0.5)).to.equal('1')
      expect(show('float', 'dec:0', 999.5)).to.equal('1000')
      expect(show('float', 'dec:1', 9.96)).to.equal('10.0')
      expect(show('float', 'dec:3', 2)).to.equal('2.000')
      expect(show('float', 'dec:15', 0.1)).to.equal('0.100000000000000')
      expect(show('float', 'dec:99', 0.5)).to.equal('0.' + '5'.padEnd(15, '0')) // clamped to 15
    })

    it('rounds with toFixed only where that agrees with rounding the decimal (random values, every dec)', () => {
      let seed = 21
      const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648) * 2 - 1
      for (let i = 0; i < 20000; i++) {
        const magnitude = 10 ** Math.floor(random() * 12)
        const value = i % 3 === 0 ? Math.round(random() * 1e6) / 1000 + 0.0005 : random() * magnitude
        const dec = i % 16
        expect(fixedDecimals(value, dec), `${value} at dec ${dec}`).to.equal(decimalRounded(value, dec))
      }
    })

    it('groups thousands the same as the textbook regex', () => {
      for (const text of ['0', '-1', '999', '1000', '-1000', '12345.678', '-123456', '1234567890123', '100000.5', '1e+21', '-0.5']) {
        const m = /^(-?)(\d+)(\.\d*)?$/.exec(text)
        const want = m === null ? text : m[1] + m[2].replace(/\B(?=(\d{3})+(?!\d))/g, ',') + (m[3] ?? '')
        expect(groupThousands(text), text).to.equal(want)
      }
    })

    it('shows zero and values rounding to zero without a sign', () => {
      expect(show('float', 'dec:2', -0.001)).to.equal('0.00')
      expect(show('float', '', -0)).to.equal('0')
      expect(show('float', 'dec:0', -0.4)).to.equal('0')
    })

    it('groups thousands with commas, negatives included, and leaves exponents alone', () => {
      expect(show('int', 'type:commas', 1234567)).to.equal('1,234,567')
      expect(show('int', 'type:commas', -1234567)).to.equal('-1,234,567')
      expect(show('int', 'type:commas', 999)).to.equal('999')
      expect(show('float', 'type:commas;dec:2', -9876543.219)).to.equal('-9,876,543.22')
      expect(show('float', 'type:commas', 1e21)).to.equal('1e+21')
    })

    it('shows large numbers whole', () => {
      expect(show('int', 'type:num', 2147483647)).to.equal('2147483647')
      expect(show('float', 'type:num;dec:2', 123456789012.345)).to.equal('123456789012.35')
      expect(show('float', 'type:commas;dec:0', 1e20)).to.equal('100,000,000,000,000,000,000')
    })
  })

  describe('pct', () => {
    it('multiplies by 100 and adds %', () => {
      expect(show('float', 'type:pct;dec:1', 0.1234)).to.equal('12.3%')
      expect(show('float', 'type:pct', 0.07)).to.equal('7%')
      expect(show('float', 'type:pct;dec:2', -0.5)).to.equal('-50.00%')
      expect(show('int', 'type:pct', 3)).to.equal('300%')
      expect(show('int', 'type:pct', 0)).to.equal('0%')
      expect(show('float', 'type:pct;dec:0', 123.456)).to.equal('12,346%')
    })
  })

  describe('currency', () => {
    it('shows $, separators and two decimals unless dec says otherwise, the minus before the $', () => {
      expect(show('float', 'type:currency;dec:2', 1234567.891)).to.equal('$1,234,567.89')
      expect(show('float', 'type:currency', -3.2)).to.equal('-$3.20')
      expect(show('float', 'type:currency;dec:0', 999.5)).to.equal('$1,000')
      expect(show('float', 'type:currency;dec:2', -0.001)).to.equal('$0.00')
      expect(show('int', 'type:currency', 12)).to.equal('$12.00')
      expect(show('int', 'type:currency', -1234)).to.equal('-$1,234.00')
      expect(show('float', 'type:currency', 0)).to.equal('$0.00')
    })

    it('pads a negative amount with zeros after its signs', () => {
      expect(show('float', 'type:currency;width:10;padwith:0', -12.5)).to.equal('-$00012.50')
    })
  })

  describe('padwith and padto', () => {
    it('fills numbers and text to the width, with a fill sequence cut to fit', () => {
      expect(show('int', 'type:num;width:6;padwith:0', 42)).to.equal('000042')
      expect(show('int', 'type:num;width:6;padwith:0', -42)).to.equal('-00042')
      expect(show('int', 'type:num;width:7;padwith:ab', 42)).to.equal('ababa42')
      expect(show('text', 'type:char;width:6;padwith:.', 'ab')).to.equal('....ab')
    })

    it('pads numbers under a display type it does not know, as under no type', () => {
      expect(show('int', 'type:sci;width:5;padwith:0', 42)).to.equal('00042')
    })

    it('pads to padto instead of the width, on the right when negative', () => {
      expect(show('int', 'type:num;width:10;padto:4;padwith:*', 7)).to.equal('***7')
      expect(show('int', 'type:num;width:10;padto:-4;padwith:*', 7)).to.equal('7***')
    })

    it('leaves values already as long alone, and never pads dates or times', () => {
      expect(show('int', 'type:num;width:2;padwith:0', 12345)).to.equal('12345')
      expect(show('int', 'type:date;width:12;padwith:*', 20031115)).to.equal('11/15/03')
      expect(show('int', 'type:hm24;width:12;padwith:*', 224556)).to.equal('22:46')
    })
  })

  describe('width cut', () => {
    it('cuts only values longer than the cut width, numbers and dates too', () => {
      expect(show('text', 'type:char;width:5', 'Tabul', 5)).to.equal('Tabul')
      expect(show('text', 'type:char;width:5', 'Tabula', 5)).to.equal('Tab >')
      expect(show('int', 'type:num;width:4', 123456, 4)).to.equal('12 >')
      expect(show('float', 'type:currency;width:6', 1234.5, 6)).to.equal('$1,2 >')
      expect(show('int', 'type:date4y;width:8', 20031115, 8)).to.equal('11/15/ >')
    })

    it('keeps " >" on the narrowest widths and counts an emoji as one character', () => {
      expect(show('text', 'width:1', 'abc', 1)).to.equal(' >')
      expect(show('text', 'width:2', 'abc', 2)).to.equal(' >')
      expect(show('text', 'width:4', '😀😀😀😀😀', 4)).to.equal('😀😀 >')
      expect(show('text', 'width:5', '😀😀😀😀😀', 5)).to.equal('😀😀😀😀😀')
    })

    it('shows values whole without a cut width, whatever the format says', () => {
      expect(show('text', 'type:char;width:3', 'a long value')).to.equal('a long value')
    })
  })

  describe('dates and times', () => {
    it('pads months, days and years with zeros', () => {
      expect(show('int', 'type:date', 20240105)).to.equal('01/05/24')
      expect(show('int', 'type:date', 20000229)).to.equal('02/29/00')
      expect(show('int', 'type:date4y', 9991231)).to.equal('12/31/0999')
    })

    it('shows a date column without a type as type:date, and follows the format over the kind', () => {
      expect(show('date', '', 20240131)).to.equal('01/31/24')
      expect(show('date', 'type:num', 20240131)).to.equal('20240131')
      expect(show('int', 'type:date', 20240131)).to.equal('01/31/24')
    })

    it('shows a value that is no date or time as the plain number', () => {
      expect(show('int', 'type:date', 20241301)).to.equal('20241301')
      expect(show('int', 'type:date', 20240100)).to.equal('20240100')
      expect(show('int', 'type:date', 7)).to.equal('7')
      expect(show('int', 'type:date', -20240101)).to.equal('-20240101')
      expect(show('float', 'type:date', 20240101.5)).to.equal('20240101.5')
      expect(show('int', 'type:hms12', 246000)).to.equal('246000')
      expect(show('int', 'type:hm24', 126000)).to.equal('126000')
    })

    it('shows noon, midnight and single-digit hours on the 12-hour clock', () => {
      expect(show('int', 'type:hms12', 0)).to.equal('12:00:00a')
      expect(show('int', 'type:hms12', 120000)).to.equal('12:00:00p')
      expect(show('int', 'type:hms12', 90507)).to.equal('09:05:07a')
      expect(show('int', 'type:hm12', 224556)).to.equal('10:46p')
      expect(show('int', 'type:hms24', 90507)).to.equal('09:05:07')
    })

    it('rounds hm24 to the nearest minute but never past 23:59', () => {
      expect(show('int', 'type:hm24', 224529)).to.equal('22:45')
      expect(show('int', 'type:hm24', 225930)).to.equal('23:00')
      expect(show('int', 'type:hm24', 235959)).to.equal('23:59')
      expect(show('int', 'type:hm24', 0)).to.equal('00:00')
    })
  })

  describe('text, unknown types and unknown kinds', () => {
    it('shows text as it is, dec and number types having no effect on it', () => {
      expect(show('text', 'type:char', 'a<b>&"c"')).to.equal('a<b>&"c"')
      expect(show('text', 'type:num;dec:2', 'abc')).to.equal('abc')
      expect(show('text', 'type:currency;width:8;padwith:*', 'abc')).to.equal('abc')
    })

    it('shows an unknown display type as if no type were given', () => {
      expect(show('float', 'type:sci', 2.5)).to.equal('2.5')
      expect(show('float', 'type:monthshort4y;dec:2', 2.5)).to.equal('2.50')
      expect(show('int', 'type:whatever', 20240131)).to.equal('20240131')
    })

    it('never throws on a format it cannot read', () => {
      for (const format of [';;;', 'type', 'dec:-1', 'dec:abc', 'width:0', 'width:101', 'padto:x;padwith:', ':::', 'type:date:4y']) {
        expect(show('float', format, 1.5), format).to.be.a('string')
        expect(show('text', format, 'x'), format).to.equal('x')
      }
      expect(show('float', 'dec:-1', 1.25)).to.equal('1.25')
    })

    it('shows a numeric kind it does not know like an int when whole, else like a float', () => {
      expect(show('j', 'type:commas', 1234567)).to.equal('1,234,567')
      expect(show('bigint', 'type:num;dec:2', 5)).to.equal('5.00')
      expect(show('bigint', 'type:num', 2.5)).to.equal('2.5')
      expect(show('bigint', 'type:commas', 9007199254740993n)).to.equal('9,007,199,254,740,993')
      expect(show('bigint', 'type:pct', -12n)).to.equal('-1,200%')
      expect(show('bigint', 'type:currency', -1234n)).to.equal('-$1,234.00')
    })

    it('shows a whole float as a float (dec and default decimals), not as an int', () => {
      expect(show('float', 'type:num;dec:2', 3)).to.equal('3.00')
      expect(show('f', '', 3)).to.equal('3')
    })
  })
})
