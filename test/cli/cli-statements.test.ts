/**
 * Where the shell's statements end (cli/shell/statements.ts) and how its history folds them
 * (cli/shell/history.ts): pure functions, tested without a service.
 */
import { expect } from 'chai'
import { foldStatement, HISTORY_SIZE } from '../../cli/shell/history.js'
import { splitSql, StatementReader, xmlComplete } from '../../cli/shell/statements.js'

describe('client: CLI shell statements', () => {
  it('ends SQL at a semicolon outside quotes, identifiers and comments', () => {
    expect(splitSql("select ';' a; select 2")).to.deep.equal({ statements: ["select ';' a"], rest: ' select 2' })
    expect(splitSql('select "a;b" from t -- no; end here\n;').statements).to.deep.equal(['select "a;b" from t -- no; end here'])
    expect(splitSql('select /* ; */ 1; select [x;y] from t;').statements).to.deep.equal(['select /* ; */ 1', 'select [x;y] from t'])
    expect(splitSql("select 'it''s'; ").statements).to.deep.equal(["select 'it''s'"])
    // An open literal keeps everything after it pending, semicolons included.
    expect(splitSql("select 'a;\nb").statements).to.deep.equal([])
  })

  it('knows when macro XML is complete', () => {
    expect(xmlComplete('<base table="t"/>')).to.equal(true)
    expect(xmlComplete('<tabu breaks="a"><tcol source="b" fun="sum"/></tabu>')).to.equal(true)
    expect(xmlComplete('<tabu breaks="a">')).to.equal(false)
    expect(xmlComplete('<sel value="a>1"')).to.equal(false)
    expect(xmlComplete('<sel value="a>1"/>')).to.equal(true)
    expect(xmlComplete('<!-- <open> --><base table="t"/>')).to.equal(true)
    expect(xmlComplete('<base table="t"/><!-- not closed')).to.equal(false)
    expect(xmlComplete('')).to.equal(false)
  })

  it('reads statements line by line: SQL to the semicolon, XML to a semicolon or an empty line once complete', () => {
    const r = new StatementReader()
    expect(r.push('select 1,')).to.deep.equal([])
    expect(r.pending).to.equal(true)
    expect(r.push('  2; select 3;')).to.deep.equal(['select 1,\n  2', 'select 3'])
    expect(r.pending).to.equal(false)
    expect(r.push('<base table="t"/>')).to.deep.equal([])
    expect(r.push('<sel value="x=1"/>')).to.deep.equal([])
    expect(r.push('')).to.deep.equal(['<base table="t"/>\n<sel value="x=1"/>'])
    expect(r.push('<base table="t"/>;')).to.deep.equal(['<base table="t"/>'])
    // Incomplete XML waits for more, empty lines or not.
    expect(r.push('<tabu breaks="a">')).to.deep.equal([])
    expect(r.push('')).to.deep.equal([])
    expect(r.push('<tcol source="b" fun="sum"/></tabu>;')).to.deep.equal(['<tabu breaks="a">\n\n<tcol source="b" fun="sum"/></tabu>'])
    expect(r.push('select 4')).to.deep.equal([])
    expect(r.end()).to.deep.equal(['select 4'])
  })

  it('folds the lines of a statement into one history entry, bounded', () => {
    const history = ['select 1', 'from t', 'older']
    foldStatement(history, ['from t', 'select 1'], 'from t\nselect 1')
    expect(history).to.deep.equal(['from t select 1', 'older'])
    // A line no longer at the top is left alone; a repeated statement moves to the top.
    foldStatement(history, ['older'], 'older')
    expect(history).to.deep.equal(['older', 'from t select 1'])
    const long = Array.from({ length: HISTORY_SIZE }, (_, i) => `q${i}`)
    foldStatement(long, [], 'new')
    expect(long).to.have.length(HISTORY_SIZE)
    expect(long[0]).to.equal('new')
  })
})
