/**
 * The instance a query page runs in. api/run and api/sql keep one result per session, so a query
 * run elsewhere in the same session (the CLI, another tab) would replace what the page pages
 * through. The page therefore makes an sql or run instance of its own (`api/new/{app}`) at its
 * first Run and runs and pages there; an instance's page (`api/{tag}`) already is one.
 *
 * What can still change under the page: the instance expires (idle for SESSION_TTL, or its
 * session ended) or someone posts another query to it. Every answer about a kept result names it
 * (`X-Result-Id`), so the page compares each page it reads with the result it started on and says
 * so instead of showing rows of another result under the old headers.
 */
import type { NewInstanceAnswer } from '../../../shared/api-answers.js'
import { ApiError, postJson } from './api.js'
import { apiHref } from './dom.js'

/** The header naming the result an answer comes from. */
export const RESULT_ID_HEADER = 'X-Result-Id'

/** Thrown when the rows read now are not from the result the page showed. */
export class ResultChanged extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ResultChanged'
  }
}

export class PageInstance {
  private base: string | null

  /**
   * @param app the query language (`sql` or `run`)
   * @param fixedBase the endpoint when the page already is an instance's (`/v1/api/7`); null when
   *   the page must make its own
   */
  constructor(
    private readonly app: 'sql' | 'run',
    fixedBase: string | null,
    private readonly fixed = fixedBase !== null,
  ) {
    this.base = fixedBase
  }

  /** The endpoint queries run at, made on first use. */
  async endpoint(): Promise<string> {
    if (this.base === null) {
      const { tag } = await postJson<NewInstanceAnswer>(apiHref(`new/${this.app}:json`), {})
      this.base = apiHref(String(tag))
    }
    return this.base
  }

  /** The endpoint now, or null before the first Run made it. */
  get current(): string | null {
    return this.base
  }

  /**
   * What to tell the user when reading the kept result failed with `err`, or null when the
   * failure is not about the instance. A page's own instance that is gone is forgotten, so the
   * next Run makes a new one.
   */
  explain(err: unknown): string | null {
    if (err instanceof ResultChanged) return err.message
    if (!(err instanceof ApiError) || err.status !== 404 || err.code !== 'not_found' || this.base === null) return null
    const gone = this.base
    if (!this.fixed) this.base = null
    return `The instance this page ran in (${gone}) no longer exists: it expired after being idle, or its session ended. ${
      this.fixed ? 'Open a new instance to run queries again.' : 'Run the query again to start a new one.'
    }`
  }
}
