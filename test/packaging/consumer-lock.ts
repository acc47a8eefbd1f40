/**
 * A consumer project's package.json and package-lock.json for installing tabula's packed tarball
 * with `npm ci --offline`, from the npm cache alone.
 *
 * Why a lock: `npm install --offline <tarball>` has to resolve each of tabula's dependency ranges,
 * which needs the registry's package documents, and `npm ci` (what CI and developers ran) caches
 * only the tarballs, so it fails with ENOTCACHED. A lock that pins what tabula's own
 * package-lock.json pins lets npm take each tarball from the cache by its URL and integrity.
 * tabula's lock records no `resolved` URLs, so they are rebuilt as the registry forms them
 * (`<registry>/<name>/-/<name without scope>-<version>.tgz`). The consumer gets the versions tabula
 * is tested with, as a consumer of a lock-pinned release would.
 */
import { createHash } from 'node:crypto'

interface LockEntry {
  readonly version?: string
  readonly name?: string
  readonly resolved?: string
  readonly dev?: boolean
  readonly link?: boolean
  readonly dependencies?: Record<string, string>
  readonly [field: string]: unknown
}

export interface Lock {
  readonly packages: Record<string, LockEntry>
}

export interface Manifest {
  readonly name: string
  readonly version: string
  readonly license?: string
  readonly dependencies: Record<string, string>
  readonly bin?: Record<string, string>
  readonly engines?: Record<string, string>
}

export interface ConsumerFiles {
  readonly manifest: object
  readonly lock: object
}

/**
 * tabula (from `tarballSpec`, e.g. `file:../tabula-0.1.0.tgz`) as a dependency, and `devPackages`
 * (say @types/node) as dev dependencies at the versions tabula's lock has, each with what it needs.
 */
export function consumerFiles(
  repoLock: Lock,
  repoManifest: Manifest,
  tarballSpec: string,
  tarball: Buffer,
  registry: string,
  devPackages: readonly string[],
): ConsumerFiles {
  const packages: Record<string, LockEntry> = {}
  // tabula's runtime packages: every entry of its lock not marked dev, at the same place in the tree.
  for (const [path, entry] of Object.entries(repoLock.packages)) {
    if (path !== '' && !entry.dev) packages[path] = withResolved(path, entry, registry)
  }
  const devDependencies: Record<string, string> = {}
  for (const name of devPackages) {
    const entry = repoLock.packages[`node_modules/${name}`]
    if (!entry?.version) throw new Error(`${name} is not in package-lock.json`)
    devDependencies[name] = entry.version
    addWithDependencies(name, repoLock, registry, packages)
  }
  const dependencies = { [repoManifest.name]: tarballSpec }
  packages[`node_modules/${repoManifest.name}`] = {
    version: repoManifest.version,
    resolved: tarballSpec,
    integrity: `sha512-${createHash('sha512').update(tarball).digest('base64')}`,
    license: repoManifest.license,
    dependencies: repoManifest.dependencies,
    bin: repoManifest.bin,
    engines: repoManifest.engines,
  }
  const manifest = { name: 'tabula-consumer', version: '1.0.0', private: true, type: 'module', dependencies, devDependencies }
  return {
    manifest,
    lock: {
      name: manifest.name,
      version: manifest.version,
      lockfileVersion: 3,
      requires: true,
      packages: { '': { name: manifest.name, version: manifest.version, dependencies, devDependencies }, ...packages },
    },
  }
}

/** A hoisted package and, recursively, the hoisted packages it depends on. */
function addWithDependencies(name: string, repoLock: Lock, registry: string, into: Record<string, LockEntry>): void {
  const path = `node_modules/${name}`
  const entry = repoLock.packages[path]
  if (!entry) throw new Error(`${name} is not at the top of package-lock.json's tree`)
  if (into[path]) return
  into[path] = withResolved(path, { ...entry, dev: true }, registry)
  for (const dep of Object.keys(entry.dependencies ?? {})) addWithDependencies(dep, repoLock, registry, into)
}

function withResolved(path: string, entry: LockEntry, registry: string): LockEntry {
  if (entry.resolved || entry.link || !entry.version) return entry
  const name = entry.name ?? path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length)
  const file = `${name.split('/').at(-1)}-${entry.version}.tgz`
  return { ...entry, resolved: `${registry.replace(/\/?$/, '/')}${name}/-/${file}` }
}
