/**
 * The raw values of a whole (small) kept result, for what needs numbers rather than their display
 * text: charts and the totals row. One `!data:json.rows` read of rows 0…total without
 * `values_=formatted`, checked to come from the result the table shows (X-Result-Id), and kept
 * for that result so the chart and the totals share it.
 */
import { getJsonAnswer } from './api.js'
import { RESULT_ID_HEADER, ResultChanged } from './page-instance.js'
import type { ResultSource } from './result-view.js'

export interface WholeResult {
  readonly rows: readonly (readonly unknown[])[]
}

let kept: { key: string; answer: Promise<WholeResult> } | null = null

/** Rows 0…total of the result at `source`, raw; `resultId`: the result the page shows (null: none named). */
export function readWhole(source: ResultSource, total: number, resultId: string | null): Promise<WholeResult> {
  const key = `${source.base}\n${resultId ?? ''}\n${total}`
  if (kept?.key === key) return kept.answer
  const url = `${source.base}/!data:json.rows?${encodeURIComponent(source.from)}=0&${encodeURIComponent(source.to)}=${total}`
  const answer = getJsonAnswer<{ rows: unknown[][] }>(url).then(({ body, headers }) => {
    if (headers.get(RESULT_ID_HEADER) !== resultId)
      throw new ResultChanged('The result behind this page changed while its values were read; run the query again.')
    return { rows: body.rows }
  })
  kept = { key, answer }
  // A failed read is not kept: the next try reads again.
  answer.catch(() => {
    if (kept?.answer === answer) kept = null
  })
  return answer
}
