/** Stopping running queries across gateways (`!stop`): the public API of gateway/stop. */
export { StopRegistry } from './registry.js'
export type { StopOptions, TrackOptions } from './registry.js'
export { DEFAULT_RUNNING_TTL } from './running-marker.js'
export { STOP_CHANNEL } from './message.js'
