/**
 * What the checker hands the interpreter: operations typed against the schema their pipeline
 * gives them, so the interpreter does not ask again whether a function or a summary exists,
 * whether an arity fits, or whether a list of values stands where a column belongs. Columns are
 * the exception: after a cross-tabulation, or a `<link>` to one, they depend on the data
 * (Schema.open) and the checker takes a name it does not know for a number, so there the
 * interpreter still looks names up and the kernels still refuse text where a number belongs.
 *
 * The mark is for the compiler only (shared/protocol.ts, CheckedMark): no value carries it at run
 * time, so checked operations are the same plain data as parsed ones and cross to a worker by
 * structured clone unchanged. Only this folder applies it.
 */
import type { CheckedMark, RunTask } from '../../shared/protocol.js'
import type { Op } from '../ast.js'

/** An operation the checker passed; a checked `<link>` or `<merge>` holds its checked pipeline. */
export type CheckedOp = Op & CheckedMark & { readonly ops?: CheckedOps }

/** Checked operations in pipeline order: a whole query, or the pipeline of a link or merge in it. */
export type CheckedOps = readonly CheckedOp[]

/** Marks an operation the checker has just passed (its nested pipeline, if any, already marked). */
export const markChecked = (op: Op & { readonly ops?: CheckedOps }): CheckedOp => op as CheckedOp

/**
 * A run task's operations as the engine's type. shared/ knows them only by their mark, and only
 * the checker's operations carry it, so the cast gives back what the gateway put in.
 */
export const checkedOpsOf = (task: RunTask): CheckedOps => task.ops as CheckedOps
