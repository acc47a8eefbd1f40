/**
 * Small answers already rendered, memoised by what they are a pure function of: the recipe key of
 * the result they show (a result never changes under its key: it is a function of the query and
 * the immutable table versions it read), the format, and what was asked of the result (the whole
 * answer of a query, or a row range of `!data`). A repeated request for the same answer, which
 * the result memo already spares the query, is then spared the rendering too; for a page of a
 * hundred rows that is most of its cost.
 *
 * Only string bodies up to MAX_BODY_CHARS are remembered (larger ones stream, or would crowd the
 * budget out), and never HTML: a page carries links made from the path the client used.
 */
import type { Rendered } from '../../format/index.js'
import { ClockCache } from '../../cache/clock-cache.js'

/** Memory for remembered answers per gateway, charged as UTF-16 text plus the key and overhead. */
export const RENDERED_BUDGET_BYTES = 16 * 1024 * 1024

/** Answers longer than this (in UTF-16 units) are rendered on every request, as before. */
export const MAX_BODY_CHARS = 128 * 1024

interface Remembered {
  readonly type: string
  readonly body: string
}

/** Measured at about 450 bytes for a 40-character body (the slot, the Remembered object, two strings). */
const ENTRY_OVERHEAD_BYTES = 256
const charged = (answer: Remembered, key: string): number => 2 * (answer.body.length + answer.type.length + key.length) + ENTRY_OVERHEAD_BYTES

export class RenderedAnswers {
  readonly #answers: ClockCache<Remembered>

  constructor(budgetBytes = RENDERED_BUDGET_BYTES) {
    this.#answers = new ClockCache<Remembered>(budgetBytes, charged)
  }

  /** The answer remembered under `key`, if any. */
  get(key: string): Rendered | undefined {
    return this.#answers.get(key)
  }

  /**
   * Remembers `rendered` under `key` when it is a small string body, and returns it. `key` must name
   * everything the rendering depends on; see answerKey.
   */
  remember(key: string, rendered: Rendered): Rendered {
    if (typeof rendered.body === 'string' && rendered.body.length <= MAX_BODY_CHARS) this.#answers.set(key, { type: rendered.type, body: rendered.body })
    return rendered
  }

  /** The answer remembered under `key`, else `render()` (then remembered). */
  answer(key: string, render: () => Rendered): Rendered {
    return this.get(key) ?? this.remember(key, render())
  }

  /** Entries held (for tests). */
  get count(): number {
    return this.#answers.count
  }
}

/** The key of an answer: the result's recipe key and the parts of the request it depends on. */
export function answerKey(resultKey: string, ...parts: readonly (string | number | boolean)[]): string {
  return `${resultKey}\u0000${parts.join('\u0000')}`
}
