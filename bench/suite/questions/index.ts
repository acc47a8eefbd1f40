/** Every question of the suite, in report order. */
import { COMPUTE } from './compute.js'
import { GROUP } from './group.js'
import { LINK } from './link.js'
import { MERGE } from './merge.js'
import type { SuiteQuestion } from './question.js'
import { SELECT } from './select.js'
import { SORT } from './sort.js'
import { TABULATE } from './tabulate.js'

export type { SuiteQuestion } from './question.js'

export const QUESTIONS: readonly SuiteQuestion[] = [...SELECT, ...COMPUTE, ...TABULATE, ...GROUP, ...LINK, ...MERGE, ...SORT]
