const UNIT_SECONDS: Record<string, number> = {
  s: 1, sec: 1, secs: 1, second: 1, seconds: 1,
  m: 60, min: 60, mins: 60, minute: 60, minutes: 60,
  h: 3600, hr: 3600, hrs: 3600, hour: 3600, hours: 3600,
  d: 86_400, day: 86_400, days: 86_400,
  w: 604_800, week: 604_800, weeks: 604_800,
  y: 31_557_600, yr: 31_557_600, yrs: 31_557_600, year: 31_557_600, years: 31_557_600,
};

const DURATION = /^(\d+|\d*\.\d+)\s*([a-z]+)$/i;

/** Seconds in a duration such as `"15m"`, `"1 hour"`, `"7d"` (the units jose and the reference accept). */
export function durationSeconds(text: string): number {
  const match = DURATION.exec(text.trim());
  const unit = match ? UNIT_SECONDS[match[2]!.toLowerCase()] : undefined;
  if (!match || unit === undefined) throw new TypeError(`jwt: invalid duration "${text}".`);
  return Math.round(Number(match[1]) * unit);
}

/**
 * The `exp` claim (RFC 7519 §4.1.4, seconds since the epoch) for an `expirationTime`: a number
 * is already one, a `Date` is converted, a duration counts from `iat` so both claims agree.
 */
export function expirationClaim(expirationTime: string | number | Date, iat: number): number {
  if (typeof expirationTime === "number") return expirationTime;
  if (expirationTime instanceof Date) return Math.floor(expirationTime.getTime() / 1000);
  return iat + durationSeconds(expirationTime);
}
