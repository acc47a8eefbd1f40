/**
 * `/healthz` and `/readyz`, for orchestrators and balancers.
 *
 * /healthz says the process is alive and answering HTTP: no Store call, so a Redis outage does
 * not make an orchestrator restart every gateway (a restart would not bring Redis back).
 * /readyz says whether to send this gateway work: the Store answers a ping within READY_PING_MS,
 * the worker pool has workers and is not closed, and no shutdown is draining the gateway.
 */
import type { Context } from 'koa'
import { AppError } from '../../shared/errors.js'
import type { Store } from '../../shared/store/types.js'
import { errorBody } from '../http/errors.js'
import type { QueryRunner } from '../pool/runner.js'
import type { Observe } from './state.js'

/** A Store that takes longer than this to answer a ping is as good as down for new work. */
export const READY_PING_MS = 1000

type Check = { ok: true } | { ok: false; reason: string; retryAfterSeconds?: number }

function sendJson(ctx: Context, status: number, body: unknown): void {
  ctx.status = status
  ctx.type = 'application/json; charset=utf-8'
  ctx.set('Cache-Control', 'no-store')
  ctx.body = JSON.stringify(body)
}

/** What /readyz looks at (named as in Deps). */
export interface ReadyServices {
  readonly store: Store
  readonly runner: QueryRunner
  readonly observe: Pick<Observe, 'readiness'>
}

export function answerHealthz(ctx: Context, store: Store): void {
  sendJson(ctx, 200, { ok: true, store: store.kind })
}

async function checkStore(store: Store): Promise<Check> {
  let timer: NodeJS.Timeout | undefined
  const slow = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${READY_PING_MS} ms`)), READY_PING_MS)
  })
  try {
    await Promise.race([store.ping(), slow])
    return { ok: true }
  } catch (err) {
    const retry = err instanceof AppError ? err.detail.retryAfterSeconds : undefined
    const reason = err instanceof AppError ? err.message : `the ${store.kind} store did not answer a ping (${(err as Error).message})`
    return { ok: false, reason, retryAfterSeconds: typeof retry === 'number' ? retry : undefined }
  } finally {
    clearTimeout(timer)
  }
}

function checkPool(runner: QueryRunner): Check {
  if (runner.isUp === false) return { ok: false, reason: 'the query worker pool is closed or has no workers' }
  return { ok: true }
}

function checkDraining(observe: ReadyServices['observe']): Check {
  return observe.readiness.draining ? { ok: false, reason: 'the gateway is shutting down and finishing its requests' } : { ok: true }
}

export async function answerReadyz(ctx: Context, { store, runner, observe }: ReadyServices): Promise<void> {
  const checks = { store: await checkStore(store), pool: checkPool(runner), draining: checkDraining(observe) }
  const failed = Object.entries(checks).filter((e): e is [string, Extract<Check, { ok: false }>] => !e[1].ok)
  if (failed.length === 0) {
    sendJson(ctx, 200, { ready: true, store: store.kind })
    return
  }
  // Shaped like every other error (error, code, requestId), plus which checks failed and why.
  const message = `Not ready: ${failed.map(([, c]) => c.reason).join('; ')}.`
  const body = {
    ...errorBody(new AppError('UNAVAILABLE', message), String(ctx.state.requestId)),
    ready: false,
    failed: Object.fromEntries(failed.map(([name, c]) => [name, c.reason])),
  }
  const retry = failed.map(([, c]) => c.retryAfterSeconds ?? 0).reduce((a, b) => Math.max(a, b), 0)
  if (retry > 0) ctx.set('Retry-After', String(Math.ceil(retry)))
  sendJson(ctx, 503, body)
}
