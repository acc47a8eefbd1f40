/** dbm transactions: tables. */
import type { Transaction } from './registry.js'

export const TABLES_TRANSACTIONS: readonly Transaction[] = []
