/**
 * Whether this process allocates large buffers on huge pages. On Linux, glibc hands every
 * allocation over 32 MiB (a 10M-row column is 40–80 MiB) straight from mmap, and the first touch
 * of each fresh 4 KiB page is a page fault: on a virtual machine that is most of the time of a
 * scan that writes new columns (measured: 80 MiB written in 245 ms on 4 KiB pages, 12 ms on
 * 2 MiB pages). `GLIBC_TUNABLES=glibc.malloc.hugetlb=1` asks glibc to madvise those mappings
 * for transparent huge pages; glibc reads it only at process start, so it is set by whatever
 * starts the process (npm scripts, the Dockerfile), and the gateway says at start when it is not.
 */
const TUNABLE = 'glibc.malloc.hugetlb'

/** A warning to log at start, or null when the tuning is on or does not apply (not Linux). */
export function memoryTuningWarning(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): string | null {
  if (platform !== 'linux') return null
  const set = (env.GLIBC_TUNABLES ?? '').split(':').some((t) => t.startsWith(`${TUNABLE}=`) && t !== `${TUNABLE}=0`)
  return set
    ? null
    : `GLIBC_TUNABLES does not set ${TUNABLE}: large result columns are allocated on 4 KiB pages, which can make scans several times slower; start with GLIBC_TUNABLES=${TUNABLE}=1 (docs/operations.md, "Memory and huge pages").`
}
