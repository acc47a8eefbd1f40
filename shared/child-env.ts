/**
 * The environment a child process of ours starts from: PATH, plus the memory tuning the parent
 * runs with (GLIBC_TUNABLES, docs/operations.md "Memory and huge pages"), so that a gateway started by a
 * benchmark or a test allocates as `npm start` does. Nothing else leaks through: callers add
 * exactly the settings they mean.
 */
export function childEnv(extra: Readonly<Record<string, string>> = {}): Record<string, string> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? '' }
  if (process.env.GLIBC_TUNABLES !== undefined) env.GLIBC_TUNABLES = process.env.GLIBC_TUNABLES
  return { ...env, ...extra }
}
