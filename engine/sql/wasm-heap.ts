/**
 * Loading sql.js so that its WebAssembly memory can be measured. A WASM memory grows and never
 * shrinks: once a query made SQLite allocate 2 GB, the worker holds 2 GB for good. To know when
 * that happened the worker needs the Memory object, which sql.js does not expose; Emscripten's
 * documented `instantiateWasm` hook hands us the instance, whose exports (or imports) hold it.
 */
import initSqlJs, { type SqlJsStatic } from 'sql.js'
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'

/** The little of the WebAssembly API used here (the project compiles without the DOM types). */
interface WasmMemory {
  readonly buffer: ArrayBuffer
}
interface WasmApi {
  readonly Memory: abstract new (...args: never[]) => WasmMemory
  instantiate(bytes: Uint8Array, imports: object): Promise<{ instance: { exports: object }; module: unknown }>
}
const Wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly

export interface MeasuredSqlJs {
  readonly sql: SqlJsStatic
  /** Bytes the module's WebAssembly memory holds now (it only ever grows). */
  heapBytes(): number
}

function findMemory(...sources: unknown[]): WasmMemory | null {
  for (const source of sources) {
    if (source === null || typeof source !== 'object') continue
    for (const value of Object.values(source as Record<string, unknown>)) {
      if (value instanceof Wasm.Memory) return value
      // Imports are grouped by module name (`env`, `a`…): look one level down.
      if (value !== null && typeof value === 'object' && !(value instanceof Wasm.Memory)) {
        for (const inner of Object.values(value as Record<string, unknown>)) if (inner instanceof Wasm.Memory) return inner
      }
    }
  }
  return null
}

export async function loadMeasuredSqlJs(): Promise<MeasuredSqlJs> {
  const wasmPath = createRequire(import.meta.url).resolve('sql.js/dist/sql-wasm.wasm')
  const bytes = await readFile(wasmPath)
  let memory: WasmMemory | null = null
  const sql = await initSqlJs({
    instantiateWasm(imports: object, receive: (instance: unknown, module: unknown) => void) {
      void Wasm.instantiate(bytes, imports).then(({ instance, module }) => {
        memory = findMemory(instance.exports, imports)
        receive(instance, module)
      })
      // Emscripten's contract: an empty object says "instantiation is under way, asynchronously".
      return {}
    },
  } as never)
  if (memory === null) throw new Error('sql.js: could not find the WebAssembly memory of the module')
  const found: WasmMemory = memory
  return { sql, heapBytes: () => found.buffer.byteLength }
}
