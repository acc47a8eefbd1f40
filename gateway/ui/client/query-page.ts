/**
 * The query editor (api/run, api/sql, sql and run instances) and the viewer of a fixed-query
 * instance. Run posts the query to the endpoint's JSON form and waits for its status only; the
 * result is then read a page at a time (result-view.ts) while progress.ts shows how far it got.
 */
import './nav.js'
import { byId, pageData, required } from './dom.js'
import { setUpEditorPage } from './editor-page.js'
import { ErrorBox } from './messages.js'
import { outcomeOf, QueryProgress } from './progress.js'
import { QueryRunner } from './query-runner.js'
import { ResultView, type ResultSource } from './result-view.js'

const data = pageData()
const source: ResultSource = { base: required(data, 'base'), from: required(data, 'from'), to: required(data, 'to') }

function editor(): void {
  const form = byId<HTMLFormElement>('query-form')
  const box = byId<HTMLTextAreaElement>('query')
  const run = byId<HTMLButtonElement>('run')
  const param = required(data, 'param')
  const page = setUpEditorPage(form, box, data)
  // api/run and api/sql run in an instance of the page's own; an instance's page in that instance.
  const runner = new QueryRunner({
    app: data.app === 'run' ? 'run' : 'sql',
    param,
    fixedBase: data.instance === 'page' ? null : source.base,
    from: source.from,
    to: source.to,
    runButton: run,
  })
  form.addEventListener('submit', (ev) => {
    ev.preventDefault()
    if (runner.running) return
    const text = page.text()
    if (text.trim() === '') {
      new ErrorBox().show('Type a query first.')
      page.focus()
      return
    }
    page.ran(text)
    runner.run(text)
  })
}

/** A fixed-query instance computes its result when it is first read. */
function viewer(): void {
  const errors = new ErrorBox()
  const view = new ResultView((err) => errors.show(err))
  const progress = new QueryProgress(source.base, (err) => errors.show(err))
  progress.start()
  view.load(source).then(
    () => progress.finish('done'),
    (err: unknown) => {
      progress.finish(outcomeOf(err))
      errors.show(err)
    },
  )
}

if (data.mode === 'viewer') viewer()
else editor()
