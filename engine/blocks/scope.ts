/**
 * Variable scopes of the block expander. Each `<let>`, block body or blocklet opens a scope whose
 * parent it can read. Whether a `<set>` reaches a variable of the parent depends on how the scope
 * was opened: `<let>` and `<expand>` write through, `<insert>`, `<call>` and in-place blocks do not.
 */
export class Scope {
  private readonly vars = new Map<string, string>()

  /**
   * @param parent the scope whose variables are visible here (null for the outermost one)
   * @param writesThrough whether `<set>` may assign variables found in `parent`
   */
  constructor(
    readonly parent: Scope | null,
    readonly writesThrough: boolean,
  ) {}

  /** The outermost scope: the dynamic variables passed in by the caller. */
  static root(vars: Readonly<Record<string, string>>): Scope {
    const scope = new Scope(null, false)
    for (const [name, value] of Object.entries(vars)) scope.define(name, value)
    return scope
  }

  /** The value of `name` here or in an enclosing scope. */
  lookup(name: string): string | undefined {
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- walks the parent chain, starting here
    for (let s: Scope | null = this; s; s = s.parent) {
      const v = s.vars.get(name)
      if (v !== undefined) return v
    }
    return undefined
  }

  /** Binds `name` in this scope, shadowing any outer binding. */
  define(name: string, value: string): void {
    this.vars.set(name, value)
  }

  /**
   * Assigns `name` where it is already bound, as far out as write-through links allow; a name
   * bound nowhere reachable is bound here.
   */
  assign(name: string, value: string): void {
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- walks the parent chain, starting here
    for (let s: Scope | null = this; s; s = s.writesThrough ? s.parent : null) {
      if (s.vars.has(name)) {
        s.vars.set(name, value)
        return
      }
    }
    this.vars.set(name, value)
  }
}
