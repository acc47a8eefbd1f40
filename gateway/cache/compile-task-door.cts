/**
 * The CommonJS door of compile-task.ts, for the reasons engine/worker-door.cts gives: the module
 * is loaded with import(), and the handler is exported as a promise that Piscina awaits before
 * the thread reports ready, so the engine's parser is loaded before the first query arrives.
 */
import type { CompileTask } from './compile-task.js'

type Handler = (task: CompileTask) => unknown

const handler: Promise<Handler> = import('./compile-task.js').then((m) => m.default as Handler)

export = { __esModule: true, default: handler }
