import { expect } from 'chai'
import { AppError } from '../../shared/errors.js'
import { parseApiPath } from '../../gateway/http/path.js'

const V = ['v1', 'prime-latest']

describe('parseApiPath()', () => {
  const cases: [string, string[], string][] = [
    ['/v1/api', [], 'html'],
    ['/v1/api:json', [], 'json'],
    ['/v1/api/sql:json', ['sql'], 'json'],
    ['/v1/api/sql/new:text', ['sql', 'new'], 'text'],
    ['/v1/api/!login:json', ['index', 'login'], 'json'],
    ['/v1/api/!login', ['index', 'login'], 'html'],
    ['/v1/api/sql/!data:json.rows', ['sql', 'index', 'data'], 'json.rows'],
    ['/v1/api/sql/@index/data:json.keyed', ['sql', 'index', 'data'], 'json.keyed'],
    ['/v1/api/7:json', ['7'], 'json'],
    ['/v1/api/7/:json', ['7'], 'json'],
    ['/v1/api/7/', ['7'], 'html'],
    ['/v1/api/7/!cols:json', ['7', 'index', 'cols'], 'json'],
    ['/prime-latest/api/dbm:json', ['dbm'], 'json'],
    ['/v1/api/new/sql:json', ['new', 'sql'], 'json'],
    ['/v1/api/sql/%21data:text', ['sql', 'index', 'data'], 'text'],
    ['/v1/api/7!methods:json', ['7', 'index', 'methods'], 'json'],
    ['/v1/api/7/grid1!methods:json', ['7', 'grid1', 'index', 'methods'], 'json'],
    ['/v1/api/7/.grid1/!methods', ['7', '.grid1', 'index', 'methods'], 'html'],
    ['/v1/api/7/@:json', ['7', '@'], 'json'],
    ['/v1/api/7/pub.demo:json.rows', ['7', 'pub.demo'], 'json.rows'],
    ['/v1/api/index:json', ['index'], 'json'],
    ['/v1/api/@index:json', ['index'], 'json'],
    ['/v1/api/sql:html', ['sql'], 'html'],
  ]
  for (const [path, segments, format] of cases) {
    it(`reads ${path} as [${segments.join(', ')}] in ${format}`, () => {
      expect(parseApiPath(path, V)).to.deep.equal({ version: path.split('/')[1], segments, format, suffixed: /:[^/]*$/.test(path) })
    })
  }

  it('returns null for paths outside /{version}/api', () => {
    for (const p of ['/', '/healthz', '/v1', '/v1/apix', '/v1/other/sql']) expect(parseApiPath(p, V), p).to.equal(null)
  })

  it('names the accepted versions for an unknown one', () => {
    expect(() => parseApiPath('/v2/api/sql', V))
      .to.throw(AppError)
      .with.property('code', 'UNKNOWN_VERSION')
    expect(() => parseApiPath('/v2/api/sql', V)).to.throw(/v1, prime-latest/)
  })

  it('refuses an unknown format suffix and bad percent-encoding with a clear message', () => {
    expect(() => parseApiPath('/v1/api/sql:xml', V)).to.throw(/Unknown format suffix ":xml"/)
    expect(() => parseApiPath('/v1/api/sql/%E0%A4%A', V)).to.throw(/percent-encoding/)
  })
})
