/**
 * SQLite's number printing and round() as the SQL kernels emulate them (sqlite-values.ts), against
 * sql.js on thousands of random doubles: every magnitude, digits up to a double's precision,
 * values a half-unit from a rounding edge. The hand-picked cases of functions-sql-text.test.ts
 * left the mutation run of engine/functions with survivors in the digit rounding and the
 * 17-digit shortening; an answer the kernels give must be SQLite's, and they may decline (the
 * query then runs on sql.js), but not so often that the comparison says nothing.
 */
import { expect } from 'chai'
import type { Database } from 'sql.js'
import { realText, sqliteRound } from '../../engine/functions/sql/sqlite-values.js'
import { sqlJs } from '../../engine/storage/sqljs.js'
import { Rng } from '../../engine/columns/random.js'

function randomDouble(rng: Rng): number {
  const kind = rng.int(0, 4)
  const sign = rng.chance(0.5) ? -1 : 1
  if (kind === 0) return (sign * rng.int(0, 1_000_000)) / 10 ** rng.int(0, 8) // short decimals
  if (kind === 1) return (sign * (rng.int(0, 999) + 0.5)) / 10 ** rng.int(0, 6) // halfway cases
  if (kind === 2) return sign * rng.next() * 10 ** rng.int(-20, 22) // full precision, any magnitude
  if (kind === 3) return sign * (10 ** rng.int(0, 17) - rng.int(0, 3) * 10 ** rng.int(-3, 0)) // runs of nines
  return sign * Math.round(rng.next() * 2 ** 53) // large integers
}

describe('SQLite number printing and round() against sql.js on random doubles', () => {
  let db: Database
  before(async () => {
    db = new (await sqlJs()).Database()
  })
  after(() => db.close())

  const sqlite = (expr: string, params: readonly number[]): unknown => {
    const stmt = db.prepare(`SELECT ${expr}`)
    try {
      stmt.bind(params as number[])
      stmt.step()
      return stmt.get()[0]
    } finally {
      stmt.free()
    }
  }

  it('prints a real as CAST(x AS TEXT) does, whenever it answers', () => {
    const rng = new Rng(17)
    let answered = 0
    const tries = 4000
    for (let i = 0; i < tries; i++) {
      const x = randomDouble(rng)
      const got = realText(x)
      if (got === undefined) continue
      answered++
      expect(got, `CAST(${x} AS TEXT)`).to.equal(sqlite('CAST(? + 0.0 AS TEXT)', [x]))
    }
    expect(answered, 'values printed rather than declined').to.be.above(tries * 0.5)
  })

  it('rounds as round(x, n) does, whenever it answers', () => {
    const rng = new Rng(29)
    let answered = 0
    const tries = 4000
    for (let i = 0; i < tries; i++) {
      const x = randomDouble(rng)
      const n = rng.int(-1, 20)
      const got = sqliteRound(x, n)
      if (got === undefined) continue
      answered++
      expect(got, `round(${x}, ${n})`).to.equal(sqlite('round(?, ?)', [x, n]))
    }
    expect(answered, 'values rounded rather than declined').to.be.above(tries * 0.6)
  })
})
