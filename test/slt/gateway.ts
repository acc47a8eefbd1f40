/** The two doors of a running gateway the sqllogictest runner uses: `api/sql:json.rows` and `api/dbm`. */
import type supertest from 'supertest'
import type { Cell } from './answers.js'

export interface SqlAnswer {
  readonly status: number
  /** `X-Tabula-Engine`: columnar or sqlite. */
  readonly engine: string | undefined
  readonly rows: readonly (readonly Cell[])[]
  /** The error's message when the status is not 200. */
  readonly message: string | undefined
}

export interface DbmReply {
  readonly rc: number
  readonly value?: unknown
  readonly msg?: string
}

export interface Gateway {
  sql(sql: string): Promise<SqlAnswer>
  dbm(name: string, params: Record<string, unknown>): Promise<DbmReply>
}

/** A Gateway over supertest (an in-process service) with a logged-in session's cookie. */
export function gatewayOf(http: ReturnType<typeof supertest>, cookie: string): Gateway {
  return {
    async sql(sql) {
      const res = await http.post('/v1/api/sql:json.rows').set('Cookie', cookie).send({ sql })
      const engine = res.headers['x-tabula-engine'] as string | undefined
      if (res.status !== 200) {
        const body = res.body as { error?: string } | undefined
        return { status: res.status, engine, rows: [], message: body?.error ?? res.text.slice(0, 500) }
      }
      return { status: 200, engine, rows: (res.body as { rows: Cell[][] }).rows, message: undefined }
    },
    async dbm(name, params) {
      const res = await http
        .post('/v1/api/dbm:json')
        .set('Cookie', cookie)
        .type('json')
        .send(jsonWithBigInts({ cmd: [name, params] }))
      if (res.status !== 200) return { rc: 1, msg: `HTTP ${res.status}: ${res.text.slice(0, 500)}` }
      return res.body as DbmReply
    },
  }
}

/** JSON with bigint values written as their digits (JSON.stringify refuses them). */
export function jsonWithBigInts(value: unknown): string {
  const marker = '\u0000big:'
  const text = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? `${marker}${v}` : v))
  return text.replace(/"\\u0000big:(-?\d+)"/g, '$1')
}
