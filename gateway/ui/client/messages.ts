/** The #error box of a page: the API's message for a failed or stopped query, empty otherwise. */
import { messageOf } from './api.js'
import { byId } from './dom.js'

export class ErrorBox {
  private readonly el: HTMLElement

  constructor(id = 'error') {
    this.el = byId(id)
  }

  show(err: unknown): void {
    this.el.textContent = messageOf(err)
  }

  clear(): void {
    this.el.textContent = ''
  }
}
