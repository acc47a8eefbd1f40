/**
 * client/dbm.ts types every dbm transaction by hand. This compares it with what a running
 * service lists (list_transactions): the same names, the same parameters, the same required
 * ones. A transaction added or changed on the server without the client fails here.
 */
import { expect } from 'chai'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { adminClient, startGateway, type Gateway } from './helpers.js'

/** The TypeScript source (the compiled file has no types): <repo>/client/dbm.ts. */
const SOURCE = fileURLToPath(new URL('../../../client/dbm.ts', import.meta.url))

/**
 * name → parameter → required, read from the DbmParams interface through the compiler, so a
 * transaction's parameters may be a type literal or composed of shared parts (`{…} & NewTableFields`).
 */
function declared(): Map<string, Map<string, boolean>> {
  const program = ts.createProgram([SOURCE], { strict: true, noEmit: true })
  const checker = program.getTypeChecker()
  const source = program.getSourceFile(SOURCE)
  if (!source) throw new Error(`cannot read ${SOURCE}`)
  const iface = source.statements.find((s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === 'DbmParams')
  if (!iface) throw new Error(`${SOURCE} declares no DbmParams interface`)
  const out = new Map<string, Map<string, boolean>>()
  for (const member of iface.members) {
    if (!ts.isPropertySignature(member) || !member.type) continue
    const params = new Map<string, boolean>()
    // `Record<string, never>` (no parameters) has no properties, only an index signature.
    for (const field of checker.getTypeFromTypeNode(member.type).getProperties()) {
      params.set(field.name, (field.flags & ts.SymbolFlags.Optional) === 0)
    }
    out.set(member.name.getText(source), params)
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
    const types = declared()
    expect([...types.keys()].sort()).to.deep.equal([...listed.name].sort())
    listed.name.forEach((name, i) => {
      const params = new Map(listed.params[i].map((p) => [p.name, p.required]))
      expect(Object.fromEntries(types.get(name)!), name).to.deep.equal(Object.fromEntries(params))
    })
  })
})
