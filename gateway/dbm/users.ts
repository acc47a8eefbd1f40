/** dbm transactions: users. */
import type { Transaction } from './registry.js'

export const USERS_TRANSACTIONS: readonly Transaction[] = []
