/** Stopping running queries across gateways (`!stop`) and their progress (`!status`): the public API of gateway/query/running/. */
export { StopRegistry } from './registry.js'
export type { StopOptions, TrackOptions } from './registry.js'
export { DEFAULT_RUNNING_TTL, PROGRESS_INTERVAL_MS } from './running-marker.js'
export { ProgressCell } from './progress.js'
export type { Progress } from './progress.js'
export { IDLE, statusOf } from './status.js'
export type { QueryStatus, StopAnswer } from '../../../shared/api-answers.js'
export { STOP_CHANNEL } from './message.js'
export {
  acquireQuerySlot,
  acquireSlot,
  acquireSlots,
  sessionCounter,
  SlotLease,
  SLOT_TTL_SECONDS,
  slotsKey,
  userCounter,
  userSlotsKey,
} from './session-slots.js'
export type { SlotCounter } from './session-slots.js'
