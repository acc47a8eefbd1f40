import { expect } from 'chai'
import { nextTurn } from '../../shared/turns.js'

describe('shared/turns.ts: nextTurn()', () => {
  it('resolves in a later turn of the event loop, not in the same tick', async () => {
    let resolved = false
    const turn = nextTurn().then(() => (resolved = true))
    await Promise.resolve()
    expect(resolved).to.equal(false)
    await turn
    expect(resolved).to.equal(true)
  })

  it('runs one waiting slice per turn, in the order they asked, with I/O-phase work between them', async () => {
    const events: string[] = []
    const slices = [1, 2, 3].map((n) => nextTurn().then(() => events.push(`slice ${n}`)))
    // Immediates scheduled now run in the first check phase: with setImmediate alone all three
    // slices would run before them; with turns, only the first one does.
    setImmediate(() => events.push('other work'))
    await Promise.all(slices)
    expect(events.indexOf('slice 1')).to.be.below(events.indexOf('slice 2'))
    expect(events.indexOf('slice 2')).to.be.below(events.indexOf('slice 3'))
    expect(events.indexOf('other work'), events.join(', ')).to.be.below(events.indexOf('slice 2'))
  })

  it('keeps working after the queue drained', async () => {
    await nextTurn()
    await nextTurn()
    const order: number[] = []
    await Promise.all([nextTurn().then(() => order.push(1)), nextTurn().then(() => order.push(2))])
    expect(order).to.deep.equal([1, 2])
  })
})
