/**
 * A session as the Store keeps it (`sess:{sid}`, see sessions.ts). Its own file because both the
 * manager and the parse cache (session-memos.ts) read it, and the manager uses that cache.
 */
export interface SessionRecord {
  readonly uid: string
  readonly sid: string
  /** SHA-256 (hex) of each epw handed out for this session (one per login that joined it). */
  readonly epwHashes: readonly string[]
  readonly created: string
  /**
   * Set by authenticate() only, never stored: the SHA-256 of the epw this request presented, so
   * a password change can keep the caller's own token and drop the others.
   */
  readonly presentedEpwHash?: string
}
