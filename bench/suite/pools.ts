/**
 * The text values of the suite's keys: 10 regions, 1,000 city names, 100,000 customers, 20
 * categories, 1,000 brands, 5 segments, 50 managers. ASCII only, so tabula's dictionary order
 * (UTF-16 code units) and DuckDB's (bytes) sort them alike.
 */

export const REGIONS = ['North', 'South', 'East', 'West', 'Central', 'Mountain', 'Pacific', 'Atlantic', 'Gulf', 'Plains'] as const

const SYLLABLES = ['ba', 'ke', 'lo', 'mi', 'nu', 'ra', 'si', 'to', 'vy', 'ze'] as const

/** Three syllables, e.g. "kelomi": 1,000 names with shared prefixes and suffixes for text functions. */
export const cityName = (i: number): string => SYLLABLES[Math.floor(i / 100) % 10] + SYLLABLES[Math.floor(i / 10) % 10] + SYLLABLES[i % 10]

export const customerName = (i: number): string => `cust${String(i).padStart(6, '0')}`

export const CATEGORIES = [
  'Apparel',
  'Auto',
  'Baby',
  'Beauty',
  'Books',
  'Crafts',
  'Dairy',
  'Electronics',
  'Frozen',
  'Games',
  'Garden',
  'Grocery',
  'Health',
  'Home',
  'Music',
  'Office',
  'Pets',
  'Snacks',
  'Sports',
  'Toys',
] as const

export const brandName = (i: number): string => `brand${String(i).padStart(4, '0')}`

export const SEGMENTS = ['consumer', 'corporate', 'home office', 'small business', 'public'] as const

export const managerName = (i: number): string => `${SYLLABLES[Math.floor(i / 10) % 10]}${SYLLABLES[i % 10]} ${['Ames', 'Boyd', 'Cruz', 'Diaz', 'Egan'][i % 5]}`
