/**
 * Prometheus in docker-compose.yml, checked without Docker: the files the services mount exist,
 * deploy/prometheus/prometheus.yml finds every gateway replica through Docker's DNS on the port the
 * gateways listen on, and sends the METRICS_TOKEN the gateways are given. The last test makes the
 * scrape the file describes (path, authorization header) against a real gateway run with a token,
 * so the file cannot drift from how /metrics is guarded.
 */
import { expect } from 'chai'
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join, posix } from 'node:path'
import { fileURLToPath } from 'node:url'
import { load } from 'js-yaml'
import { parseDockerfile, envOf } from './dockerfile.js'
import { startTestService, type TestService } from '../helpers/service.js'

const REPO = fileURLToPath(new URL('../../../', import.meta.url))

interface Service {
  command?: string[]
  environment?: Record<string, string>
  volumes?: string[]
  ports?: string[]
  expose?: string[]
  secrets?: string[]
}

interface Compose {
  services: Record<string, Service>
  secrets?: Record<string, { environment?: string; file?: string }>
}

interface ScrapeConfig {
  job_name: string
  metrics_path?: string
  scheme?: string
  authorization?: { type?: string; credentials_file?: string; credentials?: string }
  dns_sd_configs?: { names: string[]; type?: string; port?: number }[]
}

describe('docker-compose.yml: Prometheus scrapes every gateway', () => {
  let compose: Compose
  let prometheus: Service
  let job: ScrapeConfig
  let dnsName: string

  before(async () => {
    compose = load(await readFile(join(REPO, 'docker-compose.yml'), 'utf8')) as Compose
    prometheus = compose.services.prometheus
    expect(prometheus, 'a prometheus service').to.not.equal(undefined)
    // The configuration Prometheus reads: the host file mounted where --config.file points.
    const configPath = prometheus.command?.find((a) => a.startsWith('--config.file='))?.slice('--config.file='.length) ?? '/etc/prometheus/prometheus.yml'
    const mount = (prometheus.volumes ?? []).map((v) => v.split(':')).find(([, inside]) => inside === configPath)
    expect(mount, `a volume mounting the configuration at ${configPath}`).to.not.equal(undefined)
    const config = load(await readFile(join(REPO, mount![0]), 'utf8')) as { scrape_configs: ScrapeConfig[] }
    const found = config.scrape_configs.flatMap((c) =>
      (c.dns_sd_configs ?? []).map((sd) => ({ c, name: sd.names.find((n) => n === 'gateway' || n === 'tasks.gateway') })),
    )
    const hit = found.find((f) => f.name !== undefined)
    expect(hit, 'a scrape job whose DNS discovery names the gateway service').to.not.equal(undefined)
    job = hit!.c
    dnsName = hit!.name!
  })

  it('mounts only files that exist in the repository, in every service', () => {
    for (const [name, service] of Object.entries(compose.services)) {
      for (const volume of service.volumes ?? []) {
        const [host] = volume.split(':')
        if (host.startsWith('.') || host.startsWith('/')) expect(existsSync(join(REPO, host)), `${name} mounts ${host}`).to.equal(true)
      }
    }
  })

  it("asks Docker's DNS for an address per gateway replica (type A), on the port the gateways listen on", async () => {
    const gateway = compose.services.gateway
    const stages = parseDockerfile(await readFile(join(REPO, 'Dockerfile'), 'utf8'))
    const imageEnv = Object.assign(
      {},
      ...stages
        .at(-1)!
        .instructions.filter((i) => i.keyword === 'ENV')
        .map(envOf),
    ) as Record<string, string>
    const port = Number(gateway.environment?.PORT ?? imageEnv.PORT)
    const sd = job.dns_sd_configs!.find((s) => s.names.includes(dnsName))!
    expect(sd.type ?? 'SRV', 'A records: plain compose has no SRV records').to.equal('A')
    expect(sd.port).to.equal(port)
    expect(gateway.expose?.map(Number)).to.include(port)
    expect(job.scheme ?? 'http', 'the gateways serve plain HTTP in compose (no TLS_CERT)').to.equal(gateway.environment?.TLS_CERT ? 'https' : 'http')
  })

  it('sends the same METRICS_TOKEN the gateways check, as a secret file', () => {
    const gatewayToken = compose.services.gateway.environment?.METRICS_TOKEN ?? ''
    expect(gatewayToken, 'the gateways require METRICS_TOKEN from the environment').to.match(/^\$\{METRICS_TOKEN:\?/)
    const file = job.authorization?.credentials_file ?? ''
    const secret = posix.basename(file)
    expect(file).to.equal(`/run/secrets/${secret}`)
    expect(prometheus.secrets).to.include(secret)
    expect(compose.secrets?.[secret]?.environment).to.equal('METRICS_TOKEN')
  })

  it('keeps Prometheus (which has no login) on loopback, and the gateways unpublished', () => {
    for (const port of prometheus.ports ?? []) expect(port, 'published on 127.0.0.1 only').to.match(/^127\.0\.0\.1:/)
    expect(compose.services.gateway.ports).to.equal(undefined)
  })

  describe('the scrape it describes, against a gateway with METRICS_TOKEN', () => {
    const TOKEN = 'compose-scrape-token-0123456789'
    let svc: TestService
    before(async function () {
      this.timeout(90_000)
      svc = await startTestService('memory', { METRICS_TOKEN: TOKEN })
    })
    after(async () => {
      await svc?.close()
    })

    it('is answered in the Prometheus text format with the token, and refused without it', async () => {
      const path = job.metrics_path ?? '/metrics'
      const header = `${job.authorization?.type ?? 'Bearer'} ${TOKEN}`
      const scraped = await svc.http.get(path).set('Authorization', header)
      expect(scraped.status).to.equal(200)
      expect(scraped.headers['content-type']).to.match(/^text\/plain; version=0\.0\.4/)
      expect(scraped.text).to.match(/^# TYPE http_requests_total counter$/m)
      expect((await svc.http.get(path)).status).to.equal(401)
    })
  })
})
