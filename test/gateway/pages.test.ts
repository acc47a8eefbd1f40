import { expect } from 'chai'
import { newFormPage, runFormPage, sqlFormPage } from '../../gateway/routes/pages.js'
import { parseApiPath, type ParsedPath } from '../../gateway/http/path.js'

const route = (path: string): ParsedPath => {
  const parsed = parseApiPath(path, ['v1'])
  if (parsed === null) throw new Error(`not an API path: ${path}`)
  return parsed
}

const textOf = (body: unknown): string => {
  if (typeof body !== 'string') throw new Error('expected a page as text')
  return body
}

describe('gateway/routes/pages.ts: the pages of query endpoints opened without a query', () => {
  it('gives api/sql an editor that posts sql to api/sql, holding the text already sent, escaped', () => {
    const page = sqlFormPage(route('/v1/api/sql'), 'select 1 < 2')
    expect(page.type).to.match(/^text\/html/)
    const html = textOf(page.body)
    expect(html).to.include('action="/v1/api/sql"')
    expect(html).to.include('name="sql"')
    expect(html).to.include('select 1 &lt; 2').and.not.include('select 1 < 2')
  })

  it('gives api/run an editor that posts xml to api/run', () => {
    const html = textOf(runFormPage(route('/v1/api/run')).body)
    expect(html).to.include('action="/v1/api/run"')
    expect(html).to.include('name="xml"')
  })

  it('posts a tag endpoint to its own path, each segment encoded', () => {
    const html = textOf(sqlFormPage(route('/v1/api/my%20tag'), '').body)
    expect(html).to.include('action="/v1/api/my%20tag"')
  })

  it('gives api/sql/new its page', () => {
    const page = newFormPage(route('/v1/api/sql/new'))
    expect(page.type).to.match(/^text\/html/)
    expect(textOf(page.body)).to.include('<html')
  })
})
