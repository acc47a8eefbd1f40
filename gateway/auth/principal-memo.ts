/**
 * Principals (groups and capabilities) of the users this gateway serves, reused while the stored
 * texts they were made from are unchanged, so that a request reads its session, its user and
 * everything its principal depends on in one Store round trip, and parses none of it again.
 *
 * Nothing is trusted without being read: every request reads the user record and the inputs of
 * the principal (the groups revision, the company record, the role records: what
 * Directory.principal reads) beside its session, and an entry is used only when every one of
 * those texts is exactly the one it was made from. A change on any gateway (a role granted, a
 * company admin added, a group changed, the user deactivated) is a new text, so it counts at the
 * very next request everywhere. Which keys to read comes from the user record last seen; when
 * that record has changed, the keys read may not be the right ones, and the principal is made
 * afresh by the Directory.
 *
 * An entry made on a miss pairs the texts this request read with the principal the Directory
 * then made from its own, slightly later read. Should a text change in between, the entry is
 * keyed by texts that are gone and will not come back (records carry their `updated` time and
 * revisions are random), so it is never used: it cannot serve a principal its texts do not say.
 */
import type { Directory, Principal } from '../catalog/principal.js'
import { KEYS, type UserRecord } from '../catalog/records.js'
import { userFromStored } from '../catalog/users.js'
import { BoundedMap } from '../cache/bounded-map.js'

/** Users remembered; a forgotten one costs one more round trip at its next request. */
const MAX_USERS = 10_000

/** The Store keys Directory.principal reads for `user`, in its order. */
export function principalInputKeys(user: UserRecord): string[] {
  return [KEYS.groupsRev, KEYS.company(user.company ?? ''), ...(user.roles ?? []).map(KEYS.role)]
}

interface Entry {
  readonly userText: string
  readonly user: UserRecord
  readonly keys: readonly string[]
  /** The texts of `keys` the principal was made from; null when they were not read together. */
  readonly texts: readonly (string | null)[] | null
  readonly principal: Principal
}

const sameList = <T>(a: readonly T[], b: readonly T[]): boolean => a.length === b.length && a.every((x, i) => x === b[i])

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value) && !(value instanceof Set)) {
    Object.freeze(value)
    for (const v of Object.values(value)) deepFreeze(v)
  }
  return value
}

export class PrincipalMemo {
  readonly #byUid = new BoundedMap<string, Entry>(MAX_USERS)

  /** The keys to read beside the user record of `uid`: those of the user record last seen. */
  inputKeys(uid: string): readonly string[] {
    return this.#byUid.get(uid)?.keys ?? []
  }

  /** The user record stored as `text` under KEYS.user(uid), parsed once per text (shared, frozen). */
  user(uid: string, text: string | null): UserRecord | null {
    const entry = this.#byUid.get(uid)
    if (entry !== undefined && text !== null && entry.userText === text) return entry.user
    return userFromStored(uid, text)
  }

  /**
   * The principal of `user` (stored as `userText`), given the texts of `keysRead` read in the same
   * round trip as that user record: the remembered one when every input text is unchanged, else
   * one made by the Directory (and remembered).
   */
  async principal(
    directory: Directory,
    user: UserRecord,
    userText: string,
    keysRead: readonly string[],
    textsRead: readonly (string | null)[],
  ): Promise<Principal> {
    const entry = this.#byUid.get(user.uid)
    if (entry !== undefined && entry.userText === userText && entry.texts !== null && sameList(entry.keys, keysRead) && sameList(entry.texts, textsRead)) {
      return entry.principal
    }
    const principal = deepFreeze(await directory.principal(user))
    const keys = principalInputKeys(user)
    const texts = sameList(keys, keysRead) ? [...textsRead] : null
    this.#byUid.set(user.uid, { userText, user: deepFreeze(user), keys, texts, principal })
    return principal
  }
}
