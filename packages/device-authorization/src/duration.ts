/** Milliseconds per unit of a duration string, every spelling the reference's parser accepts. */
const UNIT_MS: ReadonlyArray<[readonly string[], number]> = [
  [["s", "sec", "secs", "second", "seconds"], 1000],
  [["m", "min", "mins", "minute", "minutes"], 60_000],
  [["h", "hr", "hrs", "hour", "hours"], 3_600_000],
  [["d", "day", "days"], 86_400_000],
  [["w", "week", "weeks"], 604_800_000],
  [["mo", "month", "months"], 2_592_000_000],
  [["y", "yr", "yrs", "year", "years"], 31_557_600_000],
];

const PATTERN = /^([+-])? ?(\d+(?:\.\d+)?) ?([a-z]+)(?: (ago|from now))?$/i;

/**
 * Parses a duration such as `"30m"`, `"5s"` or `"1 hour"` to milliseconds, with the grammar
 * the reference's option parser accepts (a sign or an `ago`/`from now` suffix, not both).
 * Returns `undefined` for anything else.
 */
export function parseDuration(value: string): number | undefined {
  const match = PATTERN.exec(value);
  if (!match) return undefined;
  const [, sign, amount, unitName, suffix] = match;
  if (sign && suffix) return undefined;
  const unit = unitName!.toLowerCase();
  const perUnit = UNIT_MS.find(([names]) => names.includes(unit))?.[1];
  if (perUnit === undefined) return undefined;
  const ms = Number(amount) * perUnit;
  return sign === "-" || suffix === "ago" ? -ms : ms;
}
