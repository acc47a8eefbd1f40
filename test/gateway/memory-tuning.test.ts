import { expect } from 'chai'
import { memoryTuningWarning } from '../../gateway/observe/memory-tuning.js'
import { childEnv } from '../../shared/child-env.js'

describe('huge-page memory tuning', () => {
  it('warns on Linux when GLIBC_TUNABLES leaves huge pages off', () => {
    expect(memoryTuningWarning('linux', {})).to.match(/GLIBC_TUNABLES=glibc\.malloc\.hugetlb=1/)
    expect(memoryTuningWarning('linux', { GLIBC_TUNABLES: 'glibc.malloc.hugetlb=0' })).to.be.a('string')
    expect(memoryTuningWarning('linux', { GLIBC_TUNABLES: 'glibc.malloc.arena_max=2' })).to.be.a('string')
  })

  it('is quiet when huge pages are asked for, alone or among other tunables, and off Linux', () => {
    expect(memoryTuningWarning('linux', { GLIBC_TUNABLES: 'glibc.malloc.hugetlb=1' })).to.equal(null)
    expect(memoryTuningWarning('linux', { GLIBC_TUNABLES: 'glibc.malloc.arena_max=2:glibc.malloc.hugetlb=2' })).to.equal(null)
    expect(memoryTuningWarning('darwin', {})).to.equal(null)
  })

  it('hands child processes PATH and the tuning, and nothing else of the parent', () => {
    const saved = process.env.GLIBC_TUNABLES
    process.env.GLIBC_TUNABLES = 'glibc.malloc.hugetlb=1'
    process.env.TABULA_TEST_LEAK = 'x'
    try {
      const env = childEnv({ PORT: '0' })
      expect(env).to.deep.equal({ PATH: process.env.PATH ?? '', GLIBC_TUNABLES: 'glibc.malloc.hugetlb=1', PORT: '0' })
    } finally {
      if (saved === undefined) delete process.env.GLIBC_TUNABLES
      else process.env.GLIBC_TUNABLES = saved
      delete process.env.TABULA_TEST_LEAK
    }
  })
})
