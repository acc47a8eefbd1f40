/**
 * A dynamic instance: the form of its variables and the answer of its index widget (a table with
 * paging, a text, or without an index the widget status table). Apply posts the variables to the
 * instance, which runs its triggers and the index widget.
 */
import './nav.js'
import { getJson, postAndDrop, postJson } from './api.js'
import type { ColumnInfo } from './cells.js'
import { byId, pageData, required } from './dom.js'
import { ErrorBox } from './messages.js'
import { outcomeOf, QueryProgress } from './progress.js'
import { ResultView, type ResultSource } from './result-view.js'

const data = pageData()
const source: ResultSource = { base: required(data, 'base'), from: required(data, 'from'), to: required(data, 'to') }
const index = required(data, 'index')
const form = byId<HTMLFormElement>('vars')
const apply = byId<HTMLButtonElement>('apply')
const text = byId('widget-text')
const errors = new ErrorBox()
const view = new ResultView((err) => errors.show(err))
const progress = new QueryProgress(source.base, (err) => errors.show(err))

/** The answer of a dynamic instance without an index widget. */
interface StatusAnswer {
  readonly widgets: { readonly name: string[]; readonly class: string[]; readonly changed: number[] }
  readonly changes: Readonly<Record<string, string>>
}

const STATUS_COLUMNS: readonly ColumnInfo[] = [
  { name: 'name', label: 'Widget', type: 'a', format: '' },
  { name: 'class', label: 'Class', type: 'a', format: '' },
  { name: 'changed', label: 'Changed', type: 'i', format: '' },
]

function variables(): Record<string, string> {
  const out: Record<string, string> = {}
  for (const input of form.querySelectorAll<HTMLInputElement>('input[name]')) out[input.name] = input.value
  return out
}

/**
 * Triggers may change variables other than those sent. The instance's own page lists them all
 * with their current values, so the form is refreshed from it (parsed, never run or inserted).
 */
async function refreshVariables(): Promise<void> {
  const res = await fetch(window.location.pathname, { headers: { Accept: 'text/html' } })
  if (!res.ok) return
  const page = new DOMParser().parseFromString(await res.text(), 'text/html')
  for (const fresh of page.querySelectorAll<HTMLInputElement>('#vars input[name]')) {
    const input = form.querySelector<HTMLInputElement>(`input[name="${CSS.escape(fresh.name)}"]`)
    if (input !== null && input !== document.activeElement) input.value = fresh.value
  }
}

/** Sends `vars` (null: nothing to set, just read) and shows what the instance answers. */
async function answer(vars: Record<string, string> | null): Promise<void> {
  switch (index) {
    case 'table':
      if (vars !== null) await postAndDrop(`${source.base}:json`, vars)
      await view.load(source)
      return
    case 'text': {
      const value = vars !== null ? await postJson<unknown>(`${source.base}:json`, vars) : await getJson<unknown>(`${source.base}:json`)
      text.textContent = typeof value === 'string' ? value : JSON.stringify(value)
      text.hidden = false
      return
    }
    default: {
      const status = vars !== null ? await postJson<StatusAnswer>(`${source.base}:json`, vars) : await getJson<StatusAnswer>(`${source.base}:json`)
      const { name, class: cls, changed } = status.widgets
      view.showStatic(
        STATUS_COLUMNS,
        name.map((w, i) => [w, cls[i], changed[i]]),
      )
      const changes = Object.entries(status.changes)
      text.textContent = changes.length === 0 ? 'No variable changed.' : `Changed: ${changes.map(([k, v]) => `${k} = ${v}`).join(', ')}`
      text.hidden = false
    }
  }
}

function run(vars: Record<string, string> | null): void {
  if (progress.running) return
  errors.clear()
  view.hide()
  text.hidden = true
  apply.disabled = true
  progress.start()
  answer(vars)
    // The form is a convenience: failing to refresh it does not fail the request.
    .then(() => (vars !== null ? refreshVariables().catch(() => undefined) : undefined))
    .then(
      () => {
        apply.disabled = false
        progress.finish('done')
      },
      (err: unknown) => {
        apply.disabled = false
        progress.finish(outcomeOf(err))
        errors.show(err)
      },
    )
}

form.addEventListener('submit', (ev) => {
  ev.preventDefault()
  run(variables())
})
run(null)
