/**
 * gateway/logger.ts is the Logger type every part of the gateway is handed; this checks that the
 * process's real one (observe/logger.ts) keeps that contract: one JSON line per call, `level`
 * and `msg` taken from the line, and `writes` saying truthfully whether a level is written.
 */
import { expect } from 'chai'
import { Writable } from 'node:stream'
import type { Logger } from '../../gateway/logger.js'
import { createLogger } from '../../gateway/observe/index.js'

/** A Logger at `level` whose lines are collected, parsed. */
function collecting(level: 'debug' | 'info' | 'warn'): { log: Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = []
  const destination = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const text of chunk.toString('utf8').split('\n')) if (text !== '') lines.push(JSON.parse(text) as Record<string, unknown>)
      done()
    },
  })
  return { log: createLogger({ level, destination }), lines }
}

describe('gateway/logger.ts: the Logger contract, as the real logger keeps it', () => {
  it('writes one JSON line per call, with its level, message and fields', () => {
    const { log, lines } = collecting('info')
    log({ level: 'warn', msg: 'slow query', requestId: 'r1', ms: 1200 })
    expect(lines).to.have.length(1)
    expect(lines[0]).to.include({ level: 'warn', msg: 'slow query', requestId: 'r1', ms: 1200 })
  })

  it('writes a line without a known level at info, and one without msg without a message', () => {
    const { log, lines } = collecting('info')
    log({ level: 'loud', msg: 'x' })
    log({ level: 'info', n: 1 })
    expect(lines[0].level).to.equal('info')
    expect(lines[1]).to.include({ level: 'info', n: 1 }).and.not.have.property('msg')
  })

  it('skips lines below its level, and says so through writes()', () => {
    const { log, lines } = collecting('warn')
    expect(log.writes?.('info')).to.equal(false)
    expect(log.writes?.('warn')).to.equal(true)
    expect(log.writes?.('error')).to.equal(true)
    log({ level: 'info', msg: 'dropped' })
    log({ level: 'error', msg: 'kept' })
    expect(lines.map((l) => l.msg)).to.deep.equal(['kept'])
  })
})
