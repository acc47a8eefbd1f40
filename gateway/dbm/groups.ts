/** dbm transactions: groups. */
import type { Transaction } from './registry.js'

export const GROUPS_TRANSACTIONS: readonly Transaction[] = []
