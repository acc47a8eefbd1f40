/** dbm transactions: data. */
import type { Transaction } from './registry.js'

export const DATA_TRANSACTIONS: readonly Transaction[] = []
