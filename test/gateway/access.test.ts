import { expect } from 'chai'
import { canRead } from '../../gateway/catalog/access.js'
import type { Principal } from '../../gateway/catalog/principal.js'
import type { DirRecord } from '../../gateway/catalog/records.js'

const user = (uid: string, extra: Partial<Principal> = {}): Principal => ({
  uid,
  company: 'main',
  groups: [],
  caps: new Set(),
  admin: false,
  ...extra,
})
const dir = (owner: string, users: string[], inherit: boolean): DirRecord => ({
  kind: 'dir',
  id: 1,
  path: 'x',
  title: '',
  owner,
  users,
  uploaders: [],
  inherit,
  sdesc: '',
  ldesc: '',
  created: '',
  updated: '',
})
const obj = (owner: string, users: string[], inherit: boolean) => ({ owner, users, inherit })

describe('canRead()', () => {
  const bob = user('bob')
  it('lets administrators read everything', () => {
    expect(canRead(user('root', { admin: true }), obj('x', [], false), [])).to.equal(true)
  })
  it('lets the owner read', () => expect(canRead(bob, obj('bob', [], false), [])).to.equal(true))
  it('lets listed users, groups and everyone read', () => {
    expect(canRead(bob, obj('x', ['bob'], false), [])).to.equal(true)
    expect(canRead(user('bob', { groups: ['sales'] }), obj('x', ['sales'], false), [])).to.equal(true)
    expect(canRead(bob, obj('x', ['*'], false), [])).to.equal(true)
  })
  it('refuses unlisted users', () => expect(canRead(bob, obj('x', ['ann'], false), [])).to.equal(false))
  it('follows inherit up the folders', () => {
    expect(canRead(bob, obj('x', [], true), [dir('x', ['*'], false), dir('x', [], true)])).to.equal(true)
    expect(canRead(bob, obj('x', ['ann'], true), [dir('x', [], false)])).to.equal(false)
  })
  it('lets a user the object lists read it even when it inherits from a folder they cannot read (issue 17: share of one table)', () => {
    expect(canRead(bob, obj('x', ['bob'], true), [dir('x', [], false)])).to.equal(true)
    expect(canRead(user('bob', { groups: ['sales'] }), obj('x', ['sales'], true), [null])).to.equal(true)
    // The folder itself stays hidden: its own list does not name bob.
    expect(canRead(bob, dir('x', [], false), [])).to.equal(false)
  })
  it('lets an owner of an inherited-from folder read', () => {
    expect(canRead(bob, obj('x', [], true), [dir('bob', [], false)])).to.equal(true)
  })
  it('refuses when inheritance reaches a missing folder or the root', () => {
    expect(canRead(bob, obj('x', [], true), [null])).to.equal(false)
    expect(canRead(bob, obj('x', [], true), [])).to.equal(false)
  })
})
