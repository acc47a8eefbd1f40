/** dbm transactions: companies. */
import type { Transaction } from './registry.js'

export const COMPANIES_TRANSACTIONS: readonly Transaction[] = []
