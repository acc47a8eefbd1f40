/**
 * Instances in the Store. A tag comes from the durable counter `seq:tag` (INCR), so tags are
 * unique across gateways and never reused, even after a restart. An instance belongs to the
 * session that created it and lives as long as that session is used.
 *
 *   inst:{tag}        JSON InstanceRecord
 *   instvars:{tag}    hash of the dynamic variables
 *   inststate:{tag}   hash of the instance's kept state (the recipe of its last result)
 *   sessinst:{sid}    set of the session's tags
 */
export type InstanceKind = 'sql' | 'run' | 'query' | 'dynamic'

export interface InstanceRecord {
  readonly tag: number
  readonly sid: string
  readonly uid: string
  readonly kind: InstanceKind
  /** The query of `query` and `dynamic` instances (with instid_ added where it applies). */
  readonly xml: string
  readonly created: string
}

export const INSTANCE_KEYS = {
  counter: 'seq:tag',
  record: (tag: number) => `inst:${tag}`,
  vars: (tag: number) => `instvars:${tag}`,
  state: (tag: number) => `inststate:${tag}`,
  ofSession: (sid: string) => `sessinst:${sid}`,
} as const

/** Apps `api/new/{app}` can create. */
export const APPS = ['sql', 'run'] as const
