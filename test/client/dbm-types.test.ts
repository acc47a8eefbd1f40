/**
 * client/dbm.ts types every dbm transaction by hand. This compares it with what a running
 * service lists (list_transactions): the same names, the same parameters, the same required
 * ones. A transaction added or changed on the server without the client fails here.
 */
import { expect } from 'chai'
import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { adminClient, startGateway, type Gateway } from './helpers.js'

/** The TypeScript source (the compiled file has no types): <repo>/client/dbm.ts. */
const SOURCE = fileURLToPath(new URL('../../../client/dbm.ts', import.meta.url))

/** name → parameter → required, from the DbmParams interface's one-line members. */
async function declared(): Promise<Map<string, Map<string, boolean>>> {
  const text = await readFile(SOURCE, 'utf8')
  const body = text.slice(text.indexOf('export interface DbmParams {'), text.indexOf('\n}', text.indexOf('export interface DbmParams {')))
  const out = new Map<string, Map<string, boolean>>()
  for (const m of body.matchAll(/^ {2}readonly (\w+): (?:\{ (.*) \}|Record<string, never>)$/gm)) {
    const params = new Map<string, boolean>()
    for (const field of (m[2] ?? '').split('; ').filter(Boolean)) {
      const f = /^(\w+)(\??):/.exec(field)!
      params.set(f[1], f[2] !== '?')
    }
    out.set(m[1], params)
  }
  return out
}

describe('client: dbm types match the service', function () {
  this.timeout(60_000)
  let g: Gateway
  before(async () => {
    g = await startGateway()
  })
  after(async () => {
    await g?.close()
  })

  it('names every transaction with its parameters and which are required', async () => {
    const c = await adminClient(g)
    const listed = await c.dbm('list_transactions', {})
    const types = await declared()
    expect([...types.keys()].sort()).to.deep.equal([...listed.name].sort())
    listed.name.forEach((name, i) => {
      const params = new Map(listed.params[i].map((p) => [p.name, p.required]))
      expect(Object.fromEntries(types.get(name)!), name).to.deep.equal(Object.fromEntries(params))
    })
  })
})
