import type { BadInputCase } from "./body-cases.js";

const HUGE_VALUE = 100_000;

/** Every odd query for a GET route whose valid query is `valid` (a made-up key when empty). */
export function queryCases(valid: Record<string, string>): BadInputCase[] {
  const keys = Object.keys(valid).length ? Object.keys(valid) : ["x"];
  const base = (without: string): string[] =>
    Object.entries(valid)
      .filter(([k]) => k !== without)
      .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`);
  const query = (parts: string[]): string => `?${parts.join("&")}`;
  const out: BadInputCase[] = [];
  for (const key of keys) {
    const k = encodeURIComponent(key);
    const v = encodeURIComponent(valid[key] ?? "x");
    out.push(
      {
        family: "repeated key",
        name: `repeated key: ${key}`,
        query: query([...base(key), `${k}=${v}`, `${k}=${v}2`]),
      },
      {
        family: "huge value",
        name: `huge value: ${key}`,
        query: query([...base(key), `${k}=${"x".repeat(HUGE_VALUE)}`]),
      },
      {
        family: "array key",
        name: `array key: ${key}[]`,
        query: query([...base(key), `${k}[]=${v}`, `${k}[0]=${v}`]),
      },
      {
        family: "invalid percent-encoding",
        name: `invalid percent-encoding: ${key}`,
        query: query([...base(key), `${k}=%E0%A4%A`, "%ZZ=1", `${k}%=%`]),
      },
      {
        family: "control characters",
        name: `control characters: ${key}`,
        query: query([...base(key), `${k}=%00%0D%0ASet-Cookie:%20a=b%E2%80%AE`]),
      },
    );
  }
  return out;
}
