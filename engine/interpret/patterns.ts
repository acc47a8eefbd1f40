/** Column-name patterns of `<colord>`: exact names or `*` wildcards (`c*`, `*_id`). */
export function matchesPattern(name: string, pattern: string): boolean {
  if (!pattern.includes('*')) return name === pattern
  // Greedy matching that backs up only to the last '*': at worst the product of the lengths. A
  // regular expression (`^.*a.*a.*b$`) backtracks exponentially on patterns such as `*a*a*a*b`.
  let n = 0
  let p = 0
  let star = -1
  let resume = 0
  while (n < name.length) {
    if (p < pattern.length && pattern[p] === '*') {
      star = p++
      resume = n
    } else if (p < pattern.length && pattern[p] === name[n]) {
      p++
      n++
    } else if (star >= 0) {
      p = star + 1
      n = ++resume
    } else {
      return false
    }
  }
  while (pattern[p] === '*') p++
  return p === pattern.length
}
