/**
 * What a new password must look like. 1010data documents 6–15 alphanumeric characters. We keep
 * the minimum of 6 but accept up to 128 characters of any printable kind (spaces and punctuation
 * included): long passphrases are safer than short complex passwords, and NIST SP 800-63B asks
 * verifiers to allow at least 64 characters and every printable character. Passwords generated
 * for new users stay alphanumeric (generatePassword), so they also meet the vendor's rule.
 */
import { AppError } from '../../shared/errors.js'

export const PASSWORD_RULES = { minLength: 6, maxLength: 128 } as const

const RULE_TEXT = `${PASSWORD_RULES.minLength} to ${PASSWORD_RULES.maxLength} printable characters`

/** Throws INVALID_PARAMETER naming `parameter` unless the password follows the rules. */
export function checkPasswordRules(password: string, parameter = 'new_password'): void {
  // Counted in code points, so a character outside the BMP counts once, as a user would count it.
  const length = [...password].length
  const fail = (why: string): AppError =>
    new AppError('INVALID_PARAMETER', `The password in "${parameter}" ${why}; a password has ${RULE_TEXT}.`, { parameter })
  if (length < PASSWORD_RULES.minLength) throw fail(`is too short (${length} characters)`)
  if (length > PASSWORD_RULES.maxLength) throw fail(`is too long (${length} characters)`)
  // Control characters (tabs, newlines, NUL…) cannot be typed reliably at a login prompt.
  if (/\p{Cc}/u.test(password)) throw fail('contains a control character')
}
