/**
 * Each `<tcol>` summary computed the slow, obvious way over one group's values (and weights), row
 * by row: the reference the summary kernels and every tabulation path are checked against. N/A
 * is null (text N/A may also be '').
 */
export type SummaryValue = number | bigint | string | null

const valid = (vs: readonly SummaryValue[]): (number | string)[] => vs.filter((v) => v !== null && v !== '') as (number | string)[]
const nums = (vs: readonly SummaryValue[]): number[] => valid(vs) as number[]
const total = (x: readonly number[]): number => x.reduce((a, b) => a + b, 0)

function variance(vs: readonly SummaryValue[]): number | null {
  const x = nums(vs)
  if (x.length < 2) return null
  const m = total(x) / x.length
  return x.reduce((a, b) => a + (b - m) ** 2, 0) / (x.length - 1)
}

export const SUMMARY_REFERENCE: Readonly<Record<string, (vs: SummaryValue[], ws: SummaryValue[]) => SummaryValue>> = {
  cnt: (vs) => vs.length,
  cntnna: (vs) => valid(vs).length,
  ucnt: (vs) => new Set(valid(vs)).size,
  sum: (vs) => total(nums(vs)),
  // SQL's sum: null over no values.
  $sum: (vs) => (nums(vs).length ? total(nums(vs)) : null),
  // SQL's group_concat, in row order; the reference runs it without a text separator (none: '').
  $group_concat: (vs) => (valid(vs).length ? valid(vs).join('') : null),
  avg: (vs) => (nums(vs).length ? total(nums(vs)) / nums(vs).length : null),
  var: variance,
  stdev: (vs) => {
    const v = variance(vs)
    return v === null ? null : Math.sqrt(v)
  },
  median: (vs) => {
    const x = [...nums(vs)].sort((a, b) => a - b)
    if (x.length === 0) return null
    const m = x.length >> 1
    return x.length % 2 ? x[m] : (x[m - 1] + x[m]) / 2
  },
  first: (vs) => vs[0] ?? null,
  last: (vs) => vs[vs.length - 1] ?? null,
  min: (vs) => (valid(vs).length ? valid(vs).reduce((a, b) => (b < a ? b : a)) : null),
  max: (vs) => (valid(vs).length ? valid(vs).reduce((a, b) => (b > a ? b : a)) : null),
  wsum: (vs, ws) => vs.reduce<number>((a, v, i) => (v === null || ws[i] === null ? a : a + (v as number) * (ws[i] as number)), 0),
  wavg: (vs, ws) => {
    let sw = 0
    let sxw = 0
    vs.forEach((v, i) => {
      if (v === null || ws[i] === null) return
      sw += ws[i] as number
      sxw += (v as number) * (ws[i] as number)
    })
    return sw === 0 ? null : sxw / sw
  },
}
