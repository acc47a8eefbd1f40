/**
 * DOM helpers. Values from the service enter the page as text (textContent) only, never as
 * markup, so nothing in a table, a message or a query can add elements or run script.
 */

/** The element with this id; a page without it is a bug in the page, not a user error. */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const el = document.getElementById(id)
  if (el === null) throw new Error(`The page has no #${id}.`)
  return el as T
}

/** A new element holding `text` as text. */
export function make<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, className?: string): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag)
  if (text !== undefined) el.textContent = text
  if (className !== undefined) el.className = className
  return el
}

/** What the server told the page's script, as data- attributes of <main id="workbench">. */
export function pageData(): DOMStringMap {
  return byId('workbench').dataset
}

/** A data- attribute the page cannot work without. */
export function required(data: DOMStringMap, name: string): string {
  const value = data[name]
  if (value === undefined) throw new Error(`The page has no data-${name}.`)
  return value
}

/** The link to an API path of this page's version: apiHref('run') → /v1/api/run. */
export function apiHref(path: string): string {
  return `/${encodeURIComponent(required(pageData(), 'version'))}/api/${path}`
}

/** Ctrl+Enter (or Cmd+Enter) in a text box submits its form, as a Submit button would. */
export function submitOnCtrlEnter(box: HTMLTextAreaElement, form: HTMLFormElement): void {
  box.addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter' && (ev.ctrlKey || ev.metaKey)) {
      ev.preventDefault()
      form.requestSubmit()
    }
  })
}
