/**
 * The write workload of the SIGKILL test and the model that judges its outcome.
 *
 * Each client owns one top folder `w<c>` (and the users `u<c>n<n>`) and sends its changes one at
 * a time, so the state of its namespace is a function of the changes acknowledged, plus at most
 * one change in flight when the service died. After a kill the namespace must be exactly the
 * acknowledged state, or that state with the in-flight change applied whole: anything else is a
 * lost acknowledged change or half a change.
 */
import type { Client, Reply } from './client.js'

/** What the model knows of a path: a folder, or a table by its content. */
export type Entry = { readonly kind: 'dir' } | { readonly kind: 'table'; readonly tag: string; readonly rows: number }

export interface Namespace {
  readonly entries: ReadonlyMap<string, Entry>
  readonly users: ReadonlySet<string>
}

export type Op =
  | { readonly type: 'make_dir'; readonly path: string }
  | { readonly type: 'upload_table'; readonly path: string; readonly tag: string; readonly rows: number; readonly replace: boolean }
  | { readonly type: 'savetable'; readonly path: string; readonly tag: string; readonly rows: number; readonly replace: boolean }
  | { readonly type: 'move'; readonly from: string; readonly to: string }
  | { readonly type: 'drop_table'; readonly path: string }
  | { readonly type: 'add_user'; readonly uid: string }

/** The namespace after `op`, which the model assumes succeeded whole. */
export function applyOp(ns: Namespace, op: Op): Namespace {
  const entries = new Map(ns.entries)
  const users = new Set(ns.users)
  switch (op.type) {
    case 'make_dir':
      entries.set(op.path, { kind: 'dir' })
      break
    case 'upload_table':
    case 'savetable':
      entries.set(op.path, { kind: 'table', tag: op.tag, rows: op.rows })
      break
    case 'drop_table':
      entries.delete(op.path)
      break
    case 'move':
      // A folder moves with everything below it.
      for (const [path, entry] of ns.entries) {
        if (path !== op.from && !path.startsWith(`${op.from}.`)) continue
        entries.delete(path)
        entries.set(op.to + path.slice(op.from.length), entry)
      }
      break
    case 'add_user':
      users.add(op.uid)
      break
  }
  return { entries, users }
}

/** A canonical text of a namespace, to compare two of them. */
export function describeNamespace(ns: Namespace): string {
  const entries = [...ns.entries].sort(([a], [b]) => (a < b ? -1 : 1)).map(([p, e]) => (e.kind === 'dir' ? `${p}/` : `${p}=${e.tag}x${e.rows}`))
  return `${entries.join(' ')} | users: ${[...ns.users].sort().join(' ')}`
}

/** Rows of the demo item table, the source of saved query results. */
export const SOURCE_ROWS = 300

/** Chooses changes for one client from the state of its namespace. */
export class OpPicker {
  /** Never reused, across rounds: a name a cut-short change may have taken is never asked again. */
  private serial = 0

  constructor(
    readonly client: number,
    private readonly random: () => number,
  ) {}

  get root(): string {
    return `w${this.client}`
  }

  next(ns: Namespace): Op {
    const n = ++this.serial
    const tag = `c${this.client}o${n}`
    const dirs = [...ns.entries].filter(([, e]) => e.kind === 'dir').map(([p]) => p)
    const tables = [...ns.entries].filter(([, e]) => e.kind === 'table').map(([p]) => p)
    const subdirs = dirs.filter((d) => d !== this.root)
    const weights: [number, () => Op][] = [
      [dirs.length < 6 ? 1 : 0, () => ({ type: 'make_dir', path: `${this.pick(dirs.filter((d) => d.split('.').length < 3))}.d${n}` })],
      [3, () => ({ type: 'upload_table', path: `${this.pick(dirs)}.t${n}`, tag, rows: this.rows(400), replace: false })],
      [2, () => ({ type: 'savetable', path: `${this.pick(dirs)}.s${n}`, tag, rows: this.rows(SOURCE_ROWS), replace: false })],
      [tables.length > 0 ? 1.5 : 0, () => ({ type: 'upload_table', path: this.pick(tables), tag, rows: this.rows(400), replace: true })],
      [tables.length > 0 ? 1.5 : 0, () => ({ type: 'savetable', path: this.pick(tables), tag, rows: this.rows(SOURCE_ROWS), replace: true })],
      [tables.length > 0 ? 1.5 : 0, () => ({ type: 'move', from: this.pick(tables), to: `${this.pick(dirs)}.m${n}` })],
      // A folder moves (or is renamed) to just under the client's root, never into itself.
      [subdirs.length > 0 ? 0.7 : 0, () => ({ type: 'move', from: this.pick(subdirs), to: `${this.root}.r${n}` })],
      [tables.length > 8 ? 4 : tables.length > 0 ? 1 : 0, () => ({ type: 'drop_table', path: this.pick(tables) })],
      [0.7, () => ({ type: 'add_user', uid: `u${this.client}n${n}` })],
    ]
    const total = weights.reduce((sum, [w]) => sum + w, 0)
    let r = this.random() * total
    for (const [w, make] of weights) {
      if (r < w) return make()
      r -= w
    }
    return weights[1][1]()
  }

  private pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.random() * items.length)]
  }

  private rows(max: number): number {
    return 1 + Math.floor(this.random() * max)
  }
}

/** Sends one change; resolves with the reply, rejects when the connection fails (service killed). */
export function sendOp(client: Client, op: Op): Promise<Reply> {
  switch (op.type) {
    case 'make_dir':
      return client.dbm('make_dir', { path: op.path })
    case 'upload_table':
      return client.dbm('upload_table', {
        path: op.path,
        mode: op.replace ? 'replace' : 'noreplace',
        cols: [
          { name: 'k', type: 'int' },
          { name: 'tag', type: 'text' },
        ],
        data: { k: Array.from({ length: op.rows }, (_, i) => i), tag: new Array<string>(op.rows).fill(op.tag) },
      })
    case 'savetable':
      return client.post('run:json', {
        xml: `<base table="pub.demo.retail.item"/><sel value="i_()&lt;=${op.rows}"/><willbe name="tag" value="'${op.tag}'"/>`,
        savetable: op.path,
        replace: op.replace ? '1' : '0',
      })
    case 'move':
      return client.dbm('move', { from: op.from, to: op.to })
    case 'drop_table':
      return client.dbm('drop_table', { path: op.path })
    case 'add_user':
      return client.dbm('add_user', { uid: op.uid, first: 'Fault', last: 'Test', email: `${op.uid}@example.com`, password: `${op.uid}-pw-1` })
  }
}

/** Why a reply is not a success, or null when it is one. */
export function failureOf(op: Op, reply: Reply): string | null {
  if (reply.status !== 200) return `${op.type} answered HTTP ${reply.status}: ${reply.text.slice(0, 300)}`
  if ('rc' in reply.body && reply.body.rc !== 0) return `${op.type} answered rc ${String(reply.body.rc)}: ${String(reply.body.msg)}`
  return null
}

/** One client's record of a round: the model it ends with, and the change cut short, if any. */
export interface RoundLog {
  acknowledged: Namespace
  inFlight: Op | null
  done: number
  readonly failures: string[]
}

/**
 * Sends changes one after another until the service stops answering; every acknowledged change
 * is applied to the model. A change refused with an error is a failure of the service (these
 * changes are all valid in the model's state), recorded and not applied, with one exception: a
 * 429 is sent again after its Retry-After, as a client should. The clients share one session,
 * and the session slots of queries a killed gateway was running stay taken until they lapse
 * (SLOT_TTL_SECONDS, gateway/query/running/session-slots.ts), so a round that starts right after a kill
 * can meet the session's query limit.
 */
export async function runClient(client: Client, picker: OpPicker, start: Namespace, shouldStop: () => boolean): Promise<RoundLog> {
  const log: RoundLog = { acknowledged: start, inFlight: null, done: 0, failures: [] }
  while (!shouldStop()) {
    const op = picker.next(log.acknowledged)
    log.inFlight = op
    let reply: Reply
    try {
      reply = await sendOp(client, op)
      while (reply.status === 429 && !shouldStop()) {
        await new Promise((resolve) => setTimeout(resolve, 1000 * Math.min(Number(reply.retryAfter ?? 1) || 1, 5)))
        reply = await sendOp(client, op)
      }
      if (reply.status === 429) return log // stopped while waiting: `op` was refused, never applied
    } catch {
      return log // the connection broke: the service is gone, with `op` perhaps applied
    }
    log.inFlight = null
    const failure = failureOf(op, reply)
    if (failure) {
      log.failures.push(`${JSON.stringify(op)}: ${failure}`)
      continue
    }
    log.acknowledged = applyOp(log.acknowledged, op)
    log.done++
  }
  return log
}
