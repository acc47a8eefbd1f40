/** The embedded store's pub/sub: channels that live only inside this process. */
import type { MessageHandler } from '../types.js'

/** In-process pub/sub. Delivery is always asynchronous so a publisher never runs subscriber code. */
export class LocalPubSub {
  /** One object per subscribe call, so the same function subscribed twice is two subscriptions. */
  private readonly channels = new Map<string, Set<{ readonly handler: MessageHandler }>>()

  publish(channel: string, message: string): void {
    const subs = this.channels.get(channel)
    if (!subs || subs.size === 0) return
    const recipients = [...subs]
    queueMicrotask(() => {
      for (const sub of recipients) {
        // Checked at delivery, so nothing arrives after unsubscribe (or close) has returned.
        if (this.channels.get(channel)?.has(sub)) deliver(channel, sub.handler, message)
      }
    })
  }

  /** Returns the function that ends this subscription (idempotent). */
  subscribe(channel: string, handler: MessageHandler): () => void {
    const sub = { handler }
    let subs = this.channels.get(channel)
    if (!subs) this.channels.set(channel, (subs = new Set()))
    subs.add(sub)
    return () => {
      const current = this.channels.get(channel)
      if (!current?.delete(sub)) return
      if (current.size === 0) this.channels.delete(channel)
    }
  }

  /** Ends every subscription at once (store close); queued messages are then not delivered. */
  clear(): void {
    this.channels.clear()
  }
}

/**
 * Calls a subscriber. A handler that throws must not stop delivery to the others nor crash the
 * service from inside the store; it is reported as a process warning (printed on stderr).
 */
function deliver(channel: string, handler: MessageHandler, message: string): void {
  try {
    handler(message)
  } catch (err) {
    process.emitWarning(`A store subscriber for channel "${channel}" threw: ${err instanceof Error ? err.stack : String(err)}`, 'StoreSubscriberWarning')
  }
}
