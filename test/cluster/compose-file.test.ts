/**
 * docker-compose.yml and the Dockerfile cannot be run here (no Docker), so this checks what the
 * production topology promises, read from the files themselves: Redis with AOF, at least three
 * gateway replicas from the one multi-stage Dockerfile on a shared DATA_DIR volume, a health check,
 * a non-root user, runtime dependencies only, and nginx in front with the configuration the
 * nginx suite runs.
 */
import { expect } from 'chai'
import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { load } from 'js-yaml'
import { CONFIG_VARIABLES } from '../../shared/config.js'

const repo = (path: string): string => fileURLToPath(new URL(`../../../${path}`, import.meta.url))

interface Service {
  image?: string
  build?: unknown
  command?: string[]
  environment?: Record<string, string>
  volumes?: string[]
  ports?: string[]
  expose?: string[]
  deploy?: { replicas?: number }
  depends_on?: Record<string, { condition?: string }>
  healthcheck?: { test?: string[] }
}

describe('docker-compose.yml and Dockerfile', () => {
  let services: Record<string, Service>
  let dockerfile: string
  before(async () => {
    const doc = load(await readFile(repo('docker-compose.yml'), 'utf8')) as { services: Record<string, Service> }
    services = doc.services
    dockerfile = await readFile(repo('Dockerfile'), 'utf8')
  })

  it('runs Redis with AOF persistence on a named volume, checked for health', () => {
    const redis = services.redis
    expect(redis.command).to.include.members(['--appendonly', 'yes'])
    expect(redis.volumes?.some((v) => v.endsWith(':/data'))).to.equal(true)
    expect(redis.healthcheck?.test?.join(' ')).to.contain('ping')
  })

  it('runs at least three gateway replicas built here, on Redis and one shared DATA_DIR volume', () => {
    const gw = services.gateway
    expect(gw.build).to.equal('.')
    expect(gw.deploy?.replicas).to.be.at.least(3)
    expect(gw.environment?.REDIS_URL).to.equal('redis://redis:6379')
    expect(gw.environment?.DATA_DIR).to.equal('/data')
    expect(gw.environment?.TRUST_PROXY, 'the gateways sit behind the balancer').to.equal('1')
    expect(gw.volumes).to.include('tables:/data')
    expect(gw.ports, 'clients reach gateways only through the balancer').to.equal(undefined)
    expect(gw.depends_on?.redis?.condition).to.equal('service_healthy')
    for (const name of Object.keys(gw.environment ?? {})) expect(CONFIG_VARIABLES as readonly string[], `${name} is a real setting`).to.include(name)
  })

  it('puts nginx in front with the tested configuration, once the gateways are healthy', () => {
    const lb = services.balancer
    expect(lb.image).to.match(/^nginx:/)
    expect(lb.volumes).to.include('./deploy/nginx/tabula.conf:/etc/nginx/conf.d/default.conf:ro')
    expect(lb.volumes).to.include('./deploy/nginx/tabula-upstreams.conf:/etc/nginx/tabula-upstreams.conf:ro')
    expect(lb.depends_on?.gateway?.condition).to.equal('service_healthy')
    expect(lb.ports?.[0]).to.match(/:8080$/)
  })

  it('builds in two stages, installs only runtime dependencies, runs as a non-root user with a health check', () => {
    expect(dockerfile.match(/^FROM /gm)).to.have.length(2)
    expect(dockerfile).to.match(/npm ci --omit=dev/)
    expect(dockerfile).to.match(/^USER node$/m)
    expect(dockerfile).to.match(/^HEALTHCHECK .*\/healthz/m)
    expect(dockerfile).to.match(/^CMD \["node", "dist\/gateway\/server\.js"\]$/m)
  })
})
