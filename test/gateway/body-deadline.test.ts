import { expect } from 'chai'
import type { Context, Next } from 'koa'
import { AppError } from '../../shared/errors.js'
import { withinBodyDeadline } from '../../gateway/routes/body-deadline.js'

/** The parts of a Koa context the deadline reads and writes. */
function fakeCtx(complete: boolean, contentLength?: string): Context & { sent: Record<string, string> } {
  const sent: Record<string, string> = {}
  const headers = contentLength === undefined ? {} : { 'content-length': contentLength }
  return { req: { complete, headers }, set: (k: string, v: string) => (sent[k] = v), sent } as unknown as Context & { sent: Record<string, string> }
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))

describe('gateway/routes/body-deadline.ts: withinBodyDeadline()', () => {
  it('goes on to next when the body arrives in time', async () => {
    const ctx = fakeCtx(false)
    let nextRan = false
    const next: Next = async () => void (nextRan = true)
    await withinBodyDeadline(
      ctx,
      200,
      async (proceed) => {
        await sleep(10)
        await proceed()
      },
      next,
    )
    expect(nextRan).to.equal(true)
    expect(ctx.sent).to.deep.equal({})
  })

  it('fails a late body with BODY_TIMEOUT and Connection: close, and ignores the reader afterwards', async () => {
    const ctx = fakeCtx(false, '42')
    let nextRan = false
    let readerDone: () => void = () => {}
    const readerFinished = new Promise<void>((r) => (readerDone = r))
    const failure = await withinBodyDeadline(
      ctx,
      30,
      async (proceed) => {
        await sleep(100)
        await proceed()
        readerDone()
      },
      async () => void (nextRan = true),
    ).then(
      () => null,
      (e: unknown) => e,
    )
    expect(failure).to.be.instanceOf(AppError)
    expect((failure as AppError).code).to.equal('BODY_TIMEOUT')
    expect((failure as AppError).message)
      .to.include('30 ms')
      .and.include('Content-Length')
      .and.include('42')
    expect(ctx.sent.Connection).to.equal('close')
    await readerFinished
    expect(nextRan, 'the late reader must not run the route').to.equal(false)
  })

  it('tells a late body without Content-Length to send it at once', async () => {
    const failure = await withinBodyDeadline(
      fakeCtx(false),
      10,
      () => sleep(50),
      async () => {},
    ).catch((e: unknown) => e)
    expect((failure as AppError).message)
      .to.include('send the whole body at once')
      .and.not.include('Content-Length')
  })

  it('passes on a reader error that came in time, but swallows one after the 408', async () => {
    const early = await withinBodyDeadline(
      fakeCtx(false),
      200,
      () => Promise.reject(new Error('bad json')),
      async () => {},
    ).catch((e: unknown) => e)
    expect((early as Error).message).to.equal('bad json')
    const late = await withinBodyDeadline(
      fakeCtx(false),
      10,
      () => sleep(40).then(() => Promise.reject(new Error('socket closed'))),
      async () => {},
    ).catch((e: unknown) => e)
    expect((late as AppError).code).to.equal('BODY_TIMEOUT')
  })

  it('sets no timer when the body is already complete', async () => {
    const ctx = fakeCtx(true)
    let nextRan = false
    await withinBodyDeadline(
      ctx,
      1,
      async (proceed) => {
        await sleep(20)
        await proceed()
      },
      async () => void (nextRan = true),
    )
    expect(nextRan).to.equal(true)
    expect(ctx.sent).to.deep.equal({})
  })
})
