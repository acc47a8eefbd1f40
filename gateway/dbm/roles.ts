/** dbm transactions: roles. */
import type { Transaction } from './registry.js'

export const ROLES_TRANSACTIONS: readonly Transaction[] = []
