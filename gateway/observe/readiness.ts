/**
 * Whether this gateway wants new work. It stops wanting it the moment a shutdown begins, before
 * the listener closes: a balancer that polls /readyz takes the gateway out of rotation while the
 * requests it already has finish.
 */
export class Readiness {
  private drainingSince: number | null = null

  get draining(): boolean {
    return this.drainingSince !== null
  }

  startDraining(): void {
    this.drainingSince ??= Date.now()
  }
}
