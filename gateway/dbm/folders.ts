/** dbm transactions: folders. */
import type { Transaction } from './registry.js'

export const FOLDERS_TRANSACTIONS: readonly Transaction[] = []
