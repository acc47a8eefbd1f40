/**
 * The stop signal on the wire: one Store pub/sub channel that every gateway listens to, and the
 * message published on it. One channel for all queries (rather than one per query key) so a
 * gateway holds exactly one subscription however many queries it runs, and subscribing never sits
 * on the path of starting a query.
 */

import { storedObject } from './stored-json.js'

/** The channel every StopRegistry subscribes to (the Redis store prefixes it with its keyPrefix). */
export const STOP_CHANNEL = 'stop'

/** A request to stop every query running under `queryKey`, on whichever gateway runs it. */
export interface StopMessage {
  readonly queryKey: string
  readonly force: boolean
  /** The gateway that asked, for logs and debugging; receivers do not act on it. */
  readonly from: string
}

/** The message as published: JSON, so any Store (and a human with redis-cli) can carry and read it. */
export function encodeStopMessage(message: StopMessage): string {
  return JSON.stringify(message)
}

/**
 * Reads a message from the channel; null for anything malformed. Anyone with access to the Store
 * can publish here, so a bad message must be ignored rather than crash the subscriber.
 */
export function decodeStopMessage(text: string): StopMessage | null {
  const value = storedObject(text)
  if (value === null) return null
  const { queryKey, force, from } = value
  if (typeof queryKey !== 'string' || queryKey === '') return null
  return { queryKey, force: force === true, from: typeof from === 'string' ? from : '' }
}
