/**
 * Dates and times of day, which 1010data stores as plain integers (yyyymmdd, hhmmss) and shows
 * through the column's display type. A value that cannot be what the type says (a month 13, a
 * minute 75, a fraction) gives null, and the caller shows the plain number instead of a
 * misleading date.
 */

const two = (n: number): string => String(n).padStart(2, '0')

/** The parts of a yyyymmdd integer, or null when it is not one. */
function dateParts(value: number): { year: number; month: number; day: number } | null {
  if (!Number.isInteger(value) || value <= 0 || value > 99991231) return null
  const day = value % 100
  const month = Math.floor(value / 100) % 100
  if (month < 1 || month > 12 || day < 1 || day > 31) return null
  return { year: Math.floor(value / 10000), month, day }
}

/** The parts of an hhmmss integer, or null when it is not a time of day. */
function timeParts(value: number): { hour: number; minute: number; second: number } | null {
  if (!Number.isInteger(value) || value < 0 || value > 235959) return null
  const second = value % 100
  const minute = Math.floor(value / 100) % 100
  if (minute > 59 || second > 59) return null
  return { hour: Math.floor(value / 10000), minute, second }
}

/** `date`: mm/dd/yy (20031115 → 11/15/03). */
function date2y(value: number): string | null {
  const d = dateParts(value)
  return d && `${two(d.month)}/${two(d.day)}/${two(d.year % 100)}`
}

/** `date4y`: mm/dd/yyyy (20031115 → 11/15/2003). */
function date4y(value: number): string | null {
  const d = dateParts(value)
  return d && `${two(d.month)}/${two(d.day)}/${String(d.year).padStart(4, '0')}`
}

/** A 24-hour hour on a 12-hour clock with its a/p suffix: 0 → 12a, 13 → 1p. */
function twelve(hour: number): { hour: string; suffix: string } {
  return { hour: two(hour % 12 === 0 ? 12 : hour % 12), suffix: hour < 12 ? 'a' : 'p' }
}

/**
 * Hours and minutes of a time, rounded to the nearest minute (1010data shows 22:45:56 as 22:46);
 * a time from 23:59:30 stays at 23:59 rather than turning into the next day's 00:00.
 */
function roundedMinute(t: { hour: number; minute: number; second: number }): { hour: number; minute: number } {
  const minutes = Math.min(t.hour * 60 + t.minute + (t.second >= 30 ? 1 : 0), 23 * 60 + 59)
  return { hour: Math.floor(minutes / 60), minute: minutes % 60 }
}

/** `hms12`: hh:mm:ss with a or p (224556 → 10:45:56p). */
function hms12(value: number): string | null {
  const t = timeParts(value)
  if (t === null) return null
  const h = twelve(t.hour)
  return `${h.hour}:${two(t.minute)}:${two(t.second)}${h.suffix}`
}

/** `hms24`: hh:mm:ss on a 24-hour clock (224556 → 22:45:56). */
function hms24(value: number): string | null {
  const t = timeParts(value)
  return t && `${two(t.hour)}:${two(t.minute)}:${two(t.second)}`
}

/** `hm24`: hh:mm on a 24-hour clock (224556 → 22:46). */
function hm24(value: number): string | null {
  const t = timeParts(value)
  if (t === null) return null
  const m = roundedMinute(t)
  return `${two(m.hour)}:${two(m.minute)}`
}

/** `hm12`: hh:mm with a or p (224556 → 10:46p). */
function hm12(value: number): string | null {
  const t = timeParts(value)
  if (t === null) return null
  const m = roundedMinute(t)
  const h = twelve(m.hour)
  return `${h.hour}:${two(m.minute)}${h.suffix}`
}

/** The date and time display types, by name. */
export const CLOCK_TYPES: Readonly<Record<string, (value: number) => string | null>> = {
  date: date2y,
  date4y,
  hms12,
  hms24,
  hm12,
  hm24,
}
