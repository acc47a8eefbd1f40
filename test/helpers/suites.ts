/** Runs a describe block once per store kind, skipping Redis only when it is not installed. */
import { redisAvailable, startTestService, type StoreKind, type TestService } from './service.js'

export const STORE_KINDS: readonly StoreKind[] = ['memory', 'redis']

export function forEachStore(title: string, body: (get: () => TestService, kind: StoreKind) => void, env: Record<string, string> = {}): void {
  for (const kind of STORE_KINDS) {
    describe(`${title} (${kind} store)`, function () {
      let svc: TestService | undefined
      before(async function () {
        this.timeout(60_000)
        if (kind === 'redis' && !redisAvailable()) {
          console.log('    (Redis not installed: skipping the Redis run of this suite)')
          return this.skip()
        }
        svc = await startTestService(kind, env)
      })
      after(async () => svc?.close())
      body(() => svc!, kind)
    })
  }
}
