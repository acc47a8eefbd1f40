/**
 * `tabula shell` against a gateway process: statements piped in (readline reads pipes too), the
 * completer called directly on the service's real listing, and the shell on a pseudo-terminal
 * (cli-terminal.ts): prompt, Tab, history kept between runs, Ctrl-C on a running query.
 */
import { expect } from 'chai'
import { readFile, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { serviceCatalog } from '../../cli/shell/command.js'
import { cachedCatalog, makeCompleter } from '../../cli/shell/completion.js'
import { HISTORY_SIZE } from '../../cli/shell/history.js'
import { plain, scriptBinary, Terminal } from './cli-terminal.js'
import { cli, configDir, useLoggedInCli } from '../client/helpers.js'

const ENDLESS = 'with recursive c(x) as (select 1 union all select x + 1 from c) select count(*) n from c;'

describe('client: CLI shell', function () {
  this.timeout(60_000)
  const session = useLoggedInCli({ QUERY_TIMEOUT_MS: '120000' })

  describe('from a pipe', () => {
    it('runs SQL over several lines, several statements a line, macro queries and a last statement without ";"', async () => {
      const input = [
        'select 1 a,',
        '  2 b;  select 3 c;',
        '<base table="pub.demo.retail.stores"/>',
        '<sel value="store=7"/>',
        '',
        '<base table="pub.demo.retail.stores"/><sel value="store=8"/><colord cols="store"/>;',
        'select 4 d',
      ].join('\n')
      const r = await cli(['shell'], session.env, input)
      expect(r.code, r.stderr).to.equal(0)
      const answers = r.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>[])
      expect(answers).to.have.length(5)
      expect(answers[0]).to.deep.equal([{ a: 1, b: 2 }])
      expect(answers[1]).to.deep.equal([{ c: 3 }])
      expect(answers[2]).to.have.length(1)
      expect(answers[2][0].store).to.equal(7)
      expect(answers[3]).to.deep.equal([{ store: 8 }])
      expect(answers[4]).to.deep.equal([{ d: 4 }])
      // No prompt and no progress when nobody is at a terminal.
      expect(r.stdout).not.to.contain('tabula>')
      expect(r.stderr).to.equal('')
    })

    it('takes its dot commands, goes on after a failed statement, and exits 1 when one failed', async () => {
      const input = [
        '.format csv',
        "select 'x,y' t, 2.5 v;",
        'select nope;',
        '.values formatted',
        '.format jsonl',
        'select 1234567.891 big;',
        '.cols pub.demo.retail.stores',
        '.frobnicate',
        '.help',
        '.quit',
        'select 99 never;',
      ].join('\n')
      const r = await cli(['shell'], session.env, input)
      expect(r.code).to.equal(1)
      expect(r.stdout).to.contain('t,v\n"x,y",2.5\n')
      expect(r.stderr).to.contain('no such column: nope')
      expect(r.stderr).to.contain('Unknown command .frobnicate')
      // Formatted values are the service's display text.
      const shown = await session.client.sql('select 1234567.891 big', { format: 'json.rows', params: { values_: 'formatted' } })
      expect(r.stdout).to.contain(`{"big":${JSON.stringify(shown.rows[0][0])}}`)
      expect(r.stdout).to.contain('{"name":"region","label":"Region","type":"a","format":"type:char;width:16"}')
      expect(r.stdout).to.contain('.cols TABLE')
      // .quit ends the shell: what follows is not run.
      expect(r.stdout).not.to.contain('never')
    })
  })

  describe('completion (the completer called directly, on the service listing)', () => {
    const complete = (line: string, pendingText = '', pending = false) => {
      const catalog = cachedCatalog(serviceCatalog((fn) => fn(session.client)))
      return makeCompleter(catalog, () => ({ pending, text: pendingText + line }))(line)
    }

    it('completes folders and tables, a level at a time', async () => {
      expect(await complete('select * from pub.de')).to.deep.equal([['pub.demo.'], 'pub.de'])
      expect(await complete('select * from pub.demo.retail.')).to.deep.equal([
        ['pub.demo.retail.item', 'pub.demo.retail.products', 'pub.demo.retail.stores'],
        'pub.demo.retail.',
      ])
      const [words, token] = await complete('select * from p')
      expect(token).to.equal('p')
      expect(words).to.include.members(['pub.', 'partition', 'printf'])
      expect(await complete('<base table="pub.demo.retail.st')).to.deep.equal([['pub.demo.retail.stores'], 'pub.demo.retail.st'])
    })

    it('completes the columns of the tables the statement names, keywords and functions', async () => {
      // The table comes after the cursor: the whole line is read.
      const catalog = cachedCatalog(serviceCatalog((fn) => fn(session.client)))
      const line = 'select sa'
      const [words] = await makeCompleter(catalog, () => ({ pending: false, text: 'select sa from pub.demo.retail.item' }))(line)
      expect(words).to.deep.equal(['sales'])
      expect(await complete('select store, SU')).to.deep.equal([['SUBSTR', 'SUM'], 'SU'])
      expect(await complete('sel')).to.deep.equal([['select'], 'sel'])
      // Earlier lines of the statement count.
      expect((await complete('where reg', 'select * from pub.demo.retail.stores\n', true))[0]).to.deep.equal(['region'])
      expect((await complete('<sel value="sq', '<base table="pub.demo.retail.stores"/>\n', true))[0]).to.deep.equal(['sqft'])
      expect(await complete('<ta')).to.deep.equal([['table', 'tabu'], 'ta'])
    })

    it("completes the shell's commands and their paths", async () => {
      expect(await complete('.fo')).to.deep.equal([['.format'], '.fo'])
      expect(await complete('.ls pub.demo.r')).to.deep.equal([['pub.demo.retail.'], 'pub.demo.r'])
      // Nothing for a folder that does not exist, rather than an error at the prompt.
      expect(await complete('select * from nowhere.x')).to.deep.equal([[], 'nowhere.x'])
    })
  })

  describe('on a terminal', function () {
    let script: string | null
    before(function () {
      script = scriptBinary()
      if (!script) this.skip()
    })

    it('prompts, completes with Tab, shows formatted values, and keeps the history between runs', async () => {
      const hist = await configDir()
      const tenv = { ...session.env, TABULA_HISTORY: join(hist.dir, 'history') }
      try {
        const t = new Terminal(script!, ['shell'], tenv)
        let at = await t.waitFor('tabula> ')
        t.type('select store, sum(sales) total from pub.demo.retail.it')
        await t.waitFor('pub.demo.retail.it', at)
        t.type('\t')
        at = await t.waitFor('pub.demo.retail.item', at)
        t.type('\n group by store order by store limit 2;\n')
        at = await t.waitFor(/2 rows in [\d.]+ s/, at)
        // The table shows the service's formatted numbers, never a raw double.
        const [raw] = (
          await session.client.sql('select store, sum(sales) total from pub.demo.retail.item group by store order by store limit 1', { format: 'json.rows' })
        ).rows
        const shown = plain(t.output)
        expect(shown).to.match(new RegExp(`\\s1\\s+${(raw[1] as number).toFixed(2).replace('.', '\\.')}\\b`))
        expect(String(raw[1])).to.match(/\.\d{5,}/, 'the raw sum has float noise the table must not show')
        expect(shown).not.to.contain(String(raw[1]))
        t.type('.quit\n')
        expect(await t.exit()).to.equal(0)
        const file = join(hist.dir, 'history')
        expect((await stat(file)).mode & 0o777).to.equal(0o600)
        const lines = (await readFile(file, 'utf8')).trim().split('\n')
        // The statement typed over two lines is one entry.
        expect(lines).to.deep.equal(['select store, sum(sales) total from pub.demo.retail.item group by store order by store limit 2;', '.quit'])

        // A new shell brings it back with Up (twice: .quit is the newest).
        const again = new Terminal(script!, ['shell'], tenv)
        at = await again.waitFor('tabula> ')
        again.type('\x1b[A')
        await again.waitFor('.quit', at)
        again.type('\x1b[A')
        await again.waitFor('limit 2;', at)
        again.type('\n')
        await again.waitFor(/2 rows in/, at)
        again.type('\x04')
        expect(await again.exit()).to.equal(0)
      } finally {
        await hist.remove()
      }
    })

    it('keeps at most the last HISTORY_SIZE statements', async () => {
      const hist = await configDir()
      const file = join(hist.dir, 'history')
      try {
        await writeFile(file, Array.from({ length: HISTORY_SIZE + 200 }, (_, i) => `select ${i};`).join('\n') + '\n')
        const t = new Terminal(script!, ['shell'], { ...session.env, TABULA_HISTORY: file })
        const at = await t.waitFor('tabula> ')
        t.type('select 4242 n;\n')
        await t.waitFor(/1 row in/, at)
        t.type('\x04')
        expect(await t.exit()).to.equal(0)
        const lines = (await readFile(file, 'utf8')).trim().split('\n')
        expect(lines).to.have.length(HISTORY_SIZE)
        expect(lines.at(-1)).to.equal('select 4242 n;')
        expect(lines[0]).to.equal(`select ${200 + 1};`)
      } finally {
        await hist.remove()
      }
    })

    it('shows progress while a query runs; Ctrl-C stops it on the service and comes back to the prompt', async () => {
      const t = new Terminal(script!, ['shell'], session.env)
      let at = await t.waitFor('tabula> ')
      t.type(`${ENDLESS}\n`)
      at = await t.waitFor(/running \d+\.\d s/, at)
      // The service reports it running before it is stopped.
      for (let i = 0; !(await session.client.results('sql').status()).running; i++) {
        if (i > 100) expect.fail('the query never showed as running')
        await new Promise((r) => setTimeout(r, 100))
      }
      t.type('\x03')
      at = await t.waitFor('Interrupted: the query was stopped on the service.', at)
      await t.waitFor('tabula> ', at)
      expect((await session.client.results('sql').status()).running).to.equal(false)
      // Ctrl-C on a statement being typed drops it; the shell is still there.
      t.type('select 1,')
      await t.waitFor('select 1,', at)
      t.type('\x03')
      t.type('select 5150 n;\n')
      await t.waitFor(/5150[\s\S]*1 row in/, at)
      t.type('.quit\n')
      expect(await t.exit()).to.equal(0)
    })
  })
})
