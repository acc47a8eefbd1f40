/**
 * Creating, finding and ending instances. Another session's instance is reported exactly like a
 * missing one. Every access restarts the instance's idle timer (the session's TTL).
 */
import { AppError } from '../../shared/errors.js'
import type { Store, WriteOp } from '../../shared/store/types.js'
import { beforeTheChange } from '../../shared/store/unsaved.js'
import { INSTANCE_KEYS as K, type InstanceKind, type InstanceRecord } from './records.js'

export interface InstanceLimits {
  readonly ttl: number
  readonly perSession: number
}

function noSuchInstance(tag: string | number): AppError {
  return new AppError('NOT_FOUND', `No such instance ${tag}; create one with api/new or api/new/{app}.`, { tag: String(tag) })
}

export class Instances {
  constructor(
    private readonly store: Store,
    private readonly limits: InstanceLimits,
  ) {}

  async create(
    sid: string,
    uid: string,
    kind: InstanceKind,
    xml: (tag: number) => string,
    vars: Readonly<Record<string, string>> = {},
  ): Promise<InstanceRecord> {
    const owned = await this.store.smembers(K.ofSession(sid))
    if (owned.length >= this.limits.perSession) {
      throw new AppError(
        'TOO_MANY_REQUESTS',
        `This session already has ${owned.length} instances, the limit (MAX_INSTANCES_PER_SESSION); log out to drop them or reuse one.`,
        { limit: this.limits.perSession },
      )
    }
    const tag = await beforeTheChange(() => this.store.incr(K.counter))
    const record: InstanceRecord = { tag, sid, uid, kind, xml: xml(tag), created: new Date().toISOString() }
    const ops: WriteOp[] = [{ op: 'set', key: K.record(tag), value: JSON.stringify(record), ttl: this.limits.ttl }]
    if (Object.keys(vars).length > 0) ops.push({ op: 'hset', key: K.vars(tag), fields: vars }, { op: 'expire', key: K.vars(tag), ttl: this.limits.ttl })
    await this.store.batch(ops)
    // The session's list is another group (on a Redis Cluster another slot), so it is written
    // second: a listed tag always has its record, and a record whose listing failed is never
    // handed out (this request fails) and expires with its TTL.
    await this.store.batch([
      { op: 'sadd', key: K.ofSession(sid), members: [String(tag)] },
      { op: 'expire', key: K.ofSession(sid), ttl: this.limits.ttl },
    ])
    return record
  }

  /** The session's instance with this tag (digits only), with its timers restarted. */
  async get(sid: string, tagText: string): Promise<InstanceRecord> {
    if (!/^\d{1,15}$/.test(tagText)) throw noSuchInstance(tagText)
    const tag = Number(tagText)
    const raw = await this.store.get(K.record(tag))
    const record = raw === null ? null : (JSON.parse(raw) as InstanceRecord)
    if (!record || record.sid !== sid) throw noSuchInstance(tagText)
    await Promise.all([
      this.store.batch([K.record(tag), K.vars(tag), K.state(tag)].map((key) => ({ op: 'expire', key, ttl: this.limits.ttl }) as WriteOp)),
      this.store.expire(K.ofSession(sid), this.limits.ttl),
    ])
    return record
  }

  vars(tag: number): Promise<Record<string, string>> {
    return this.store.hgetall(K.vars(tag))
  }

  async setVars(tag: number, vars: Readonly<Record<string, string>>): Promise<void> {
    if (Object.keys(vars).length === 0) return
    await this.store.batch([
      { op: 'hset', key: K.vars(tag), fields: vars },
      { op: 'expire', key: K.vars(tag), ttl: this.limits.ttl },
    ])
  }

  state(tag: number, field: string): Promise<string | null> {
    return this.store.hget(K.state(tag), field)
  }

  async setState(tag: number, field: string, value: string): Promise<void> {
    await this.store.batch([
      { op: 'hset', key: K.state(tag), fields: { [field]: value } },
      { op: 'expire', key: K.state(tag), ttl: this.limits.ttl },
    ])
  }

  /**
   * Runs `work` holding the instance's write lock (a Store key with a TTL, so a crashed gateway
   * cannot hold it forever): variable updates of one instance happen one at a time, on any
   * gateway, while reads need no lock.
   */
  async exclusive<T>(tag: number, work: () => Promise<T>, opts: { waitMs?: number; holdSeconds?: number } = {}): Promise<T> {
    const key = `instlock:${tag}`
    const token = `${process.pid}:${Math.random().toString(36).slice(2)}`
    const deadline = Date.now() + (opts.waitMs ?? 30_000)
    for (let delay = 5; !(await this.store.set(key, token, { nx: true, ttl: opts.holdSeconds ?? 600 })); delay = Math.min(delay * 2, 200)) {
      if (Date.now() > deadline) throw new AppError('TOO_MANY_REQUESTS', `Instance ${tag} is busy with another request that changes it; try again.`, { tag })
      await new Promise((r) => setTimeout(r, delay))
    }
    try {
      return await work()
    } finally {
      if ((await this.store.get(key)) === token) await this.store.del(key)
    }
  }

  /** The session's live instances, by tag; reading them restarts no timer (the landing page lists them). */
  async ofSession(sid: string): Promise<InstanceRecord[]> {
    const tags = (await this.store.smembers(K.ofSession(sid))).map(Number).sort((a, b) => a - b)
    const raws = await Promise.all(tags.map((t) => this.store.get(K.record(t))))
    return raws.flatMap((raw) => {
      const record = raw === null ? null : (JSON.parse(raw) as InstanceRecord)
      return record !== null && record.sid === sid ? [record] : []
    })
  }

  /** Drops every instance of a session (logout, kill=yes). */
  async endSession(sid: string): Promise<void> {
    const tags = (await this.store.smembers(K.ofSession(sid))).map(Number)
    const keys = tags.flatMap((t) => [K.record(t), K.vars(t), K.state(t)])
    await this.store.del(...keys, K.ofSession(sid))
  }
}
