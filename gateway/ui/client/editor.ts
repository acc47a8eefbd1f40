/**
 * The query editor: CodeMirror 6 in place of the page's textarea, with SQL or macro-language XML
 * highlighting, completion, Tab to indent and Ctrl+Enter to run. The textarea stays in the form,
 * hidden and kept equal to the editor's text, so the page without script (or before it loads)
 * is the same form posting the same field.
 *
 * The editor lives in a shadow root of its own. CodeMirror writes its styles through style-mod,
 * which puts them in a <style> element when mounted in a document (refused by the policy
 * `style-src 'self'`, so the editor would be unstyled and the console would log a violation) but
 * in a constructed stylesheet (adoptedStyleSheets, which the policy does not govern) when mounted
 * in a shadow root. So no nonce and no change to the Content-Security-Policy is needed.
 */
import type { CompletionSource } from '@codemirror/autocomplete'
import { indentWithTab } from '@codemirror/commands'
import { sql, SQLite } from '@codemirror/lang-sql'
import { xml } from '@codemirror/lang-xml'
import { EditorState, Prec, type Extension } from '@codemirror/state'
import { EditorView, keymap } from '@codemirror/view'
import { basicSetup } from 'codemirror'
import { MACRO_ELEMENTS } from './macro-schema.js'

export type EditorLanguage = 'sql' | 'xml'

export interface QueryEditorOptions {
  /** The form's textarea: its text is the start, and it receives every change. */
  readonly textarea: HTMLTextAreaElement
  readonly language: EditorLanguage
  /** Ctrl+Enter (Cmd+Enter). */
  readonly onRun: () => void
  /** Completion sources beside the language's own (keywords, XML elements and attributes). */
  readonly completions?: readonly CompletionSource[]
  /** Called after every change of the text. */
  readonly onChange?: (text: string) => void
  /** What the keys do, read to screen-reader users as the editor's description. */
  readonly help?: string
}

/** How long Escape leaves Tab to move focus out of the editor instead of indenting (ms). */
const TAB_ESCAPE_MS = 2000

/** The look of the editor; it goes into the shadow root's constructed stylesheet with CodeMirror's own. */
const THEME = EditorView.theme({
  '&': { border: '1px solid #d5dbe3', borderRadius: '4px', fontSize: '13px', minHeight: '12em', maxHeight: '60vh', background: '#ffffff' },
  '&.cm-focused': { outline: '3px solid #f0a000', outlineOffset: '2px' },
  '.cm-scroller': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', minHeight: '12em' },
  '.cm-gutters': { background: '#f5f7fa', borderRight: '1px solid #d5dbe3', color: '#5b6673' },
})

function languageOf(language: EditorLanguage, completions: readonly CompletionSource[]): Extension {
  if (language === 'sql') {
    const support = sql({ dialect: SQLite })
    return [support, completions.map((source) => support.language.data.of({ autocomplete: source }))]
  }
  const support = xml({ elements: MACRO_ELEMENTS })
  return [support, completions.map((source) => support.language.data.of({ autocomplete: source }))]
}

export class QueryEditor {
  readonly view: EditorView
  /** The element the editor is mounted in (its shadow root holds the editor). */
  readonly host: HTMLElement

  constructor(opts: QueryEditorOptions) {
    const { textarea } = opts
    this.host = document.createElement('div')
    this.host.id = 'editor'
    this.host.className = 'code-editor'
    textarea.after(this.host)
    const root = this.host.attachShadow({ mode: 'open' })
    const label = textarea.labels?.[0]?.textContent ?? 'Query'
    // aria-describedby cannot point out of a shadow root: the keys' help is copied into it.
    const help = document.createElement('div')
    help.id = 'editor-help'
    help.hidden = true
    help.textContent = opts.help ?? ''
    root.append(help)
    this.view = new EditorView({
      parent: root,
      state: EditorState.create({
        doc: textarea.value,
        extensions: [
          // Above the default keymap, which binds Mod-Enter to "insert blank line".
          Prec.highest(
            keymap.of([
              {
                key: 'Mod-Enter',
                run: () => {
                  opts.onRun()
                  return true
                },
              },
              {
                // Escape, then Tab within two seconds, leaves the editor (Ctrl+M toggles that mode).
                key: 'Escape',
                run: (view) => {
                  view.setTabFocusMode(TAB_ESCAPE_MS)
                  return false
                },
              },
            ]),
          ),
          basicSetup,
          keymap.of([indentWithTab]),
          languageOf(opts.language, opts.completions ?? []),
          THEME,
          EditorView.contentAttributes.of({ 'aria-label': label, 'aria-describedby': 'editor-help' }),
          EditorView.updateListener.of((update) => {
            if (!update.docChanged) return
            textarea.value = update.state.doc.toString()
            opts.onChange?.(textarea.value)
          }),
        ],
      }),
    })
    textarea.hidden = true
    // The label pointed at the textarea; now it gives focus to the editor.
    for (const l of textarea.labels ?? []) {
      l.addEventListener('click', (ev) => {
        ev.preventDefault()
        this.view.focus()
      })
    }
  }

  get text(): string {
    return this.view.state.doc.toString()
  }

  /** Replaces the whole text (a query from the history, the URL or the browser's storage). */
  set text(value: string) {
    this.view.dispatch({ changes: { from: 0, to: this.view.state.doc.length, insert: value }, selection: { anchor: value.length } })
  }

  /** Puts `text` where the cursor is (replacing a selection) and gives the editor focus. */
  insert(text: string): void {
    this.view.dispatch(this.view.state.replaceSelection(text))
    this.view.focus()
  }

  focus(): void {
    this.view.focus()
  }
}
