/** api/new: posts the query, and answers with a link to the new instance (SPEC §4.4–4.5). */
import './nav.js'
import type { NewInstanceAnswer } from '../../../shared/api-answers.js'
import { postJson } from './api.js'
import { apiHref, byId, pageData, required, submitOnCtrlEnter } from './dom.js'
import { ErrorBox } from './messages.js'

const base = required(pageData(), 'base')
const form = byId<HTMLFormElement>('new-form')
const box = byId<HTMLTextAreaElement>('query')
const create = byId<HTMLButtonElement>('create')
const created = byId('created')
const link = byId<HTMLAnchorElement>('instance-link')
const errors = new ErrorBox()

submitOnCtrlEnter(box, form)
form.addEventListener('submit', (ev) => {
  ev.preventDefault()
  if (create.disabled) return
  errors.clear()
  created.hidden = true
  create.disabled = true
  postJson<NewInstanceAnswer>(`${base}:json`, { xml: box.value })
    .then(({ tag }) => {
      link.href = apiHref(String(tag))
      link.textContent = `instance ${tag}`
      created.hidden = false
    })
    .catch((err: unknown) => errors.show(err))
    .finally(() => (create.disabled = false))
})
