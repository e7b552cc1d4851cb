/** A performance target from issue 5 §1, with whether one run met it. */
export interface Verdict {
  /** The target as a short formula, e.g. "≥ 5x". */
  target: string;
  met: boolean;
}

/** `value ≥ limit`. */
export const atLeast = (value: number, limit: number, target: string): Verdict => ({
  target,
  met: value >= limit,
});

/** `value ≤ limit`. */
export const atMost = (value: number, limit: number, target: string): Verdict => ({
  target,
  met: value <= limit,
});

/** "≥ 5x: met" / "≤ 1/3: NOT met". */
export function verdictText(verdict: Verdict | null): string {
  if (!verdict) return "";
  return `${verdict.target}: ${verdict.met ? "met" : "NOT met"}`;
}

/** A ratio as "3.04x" (or "n/a" when either side is missing). */
export function ratioText(ratio: number): string {
  return Number.isFinite(ratio) ? `${ratio.toFixed(2)}x` : "n/a";
}

/** Milliseconds as shown in tables: one decimal below 10, none above. */
export function msText(value: number): string {
  return Number.isFinite(value) ? value.toFixed(value < 1 ? 2 : value < 10 ? 1 : 0) : "n/a";
}

/** A share as "93%". */
export function percentText(share: number): string {
  return `${(share * 100).toFixed(0)}%`;
}
