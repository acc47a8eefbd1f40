/**
 * Column files hold raw typed-array bytes, which are read back as typed-array views without any
 * conversion. That is only correct on a little-endian machine, so refuse to load anywhere else.
 * Imported for its side effect by the modules that write or read column bytes.
 */
import { endianness } from 'node:os'

if (endianness() !== 'LE') {
  throw new Error('tabula stores table columns as little-endian typed-array bytes and cannot run on this big-endian machine.')
}
