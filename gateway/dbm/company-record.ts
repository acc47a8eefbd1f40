/**
 * A new company's record, as add_company and the first start (seed.ts) make it. Its place is
 * beside CompanyRecord in catalog/records.ts; it lives here until that folder's owner moves it.
 */
import type { CompanyRecord } from '../catalog/records.js'

/** A company with no name, administrators, limit or contact details yet, made by `by` at `now`. */
export function newCompanyRecord(company: string, by: string, now: string): CompanyRecord {
  return {
    company,
    name: '',
    admins: [],
    max_ids: 0,
    email: '',
    phone: '',
    street: '',
    city: '',
    state: '',
    zip: '',
    country: '',
    created: now,
    updated: now,
    created_by: by,
    updated_by: by,
  }
}
