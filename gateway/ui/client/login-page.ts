/**
 * The login page (any HTML request without a session): posts the credentials to !login:json,
 * which sets the session cookie, then loads the page that asked again, now logged in.
 */
import { messageOf, postJson } from './api.js'
import { byId } from './dom.js'

const form = byId<HTMLFormElement>('login-form')
const uid = byId<HTMLInputElement>('uid')
const pw = byId<HTMLInputElement>('pw')
const submit = byId<HTMLButtonElement>('login-submit')
const error = byId('login-error')

form.addEventListener('submit', (ev) => {
  ev.preventDefault()
  if (submit.disabled) return
  error.textContent = ''
  submit.disabled = true
  postJson(form.dataset.login ?? form.action, { uid: uid.value, pw: pw.value }).then(
    () => window.location.reload(),
    (err: unknown) => {
      error.textContent = messageOf(err)
      submit.disabled = false
      pw.value = ''
      pw.focus()
    },
  )
})
