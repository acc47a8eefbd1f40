/**
 * Turns of the event loop for work done in slices. Long work on the gateway's thread (rendering an
 * answer, encoding a kept result, parsing a dictionary) is cut into slices of a few milliseconds
 * and waits for a turn between them. With setImmediate alone, every slice waiting at a moment ran
 * in the same check phase: eight answers streaming at once held the loop for eight slices in a
 * row, one per answer. Here one slice runs per turn of the loop, whoever's it is, in the order
 * they asked, so a turn holds the loop for one slice at most and I/O (other requests) runs between.
 */

const waiting: (() => void)[] = []
let scheduled = false

function turn(): void {
  const next = waiting.shift()
  // An immediate scheduled inside one runs in the next turn of the loop, not this one.
  scheduled = waiting.length > 0
  if (scheduled) setImmediate(turn)
  next?.()
}

/** Resolves in a later turn of the event loop, after every slice that asked before. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve)
    if (!scheduled) {
      scheduled = true
      setImmediate(turn)
    }
  })
}
