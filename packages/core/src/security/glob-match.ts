/**
 * Glob matching for trusted-origin entries without regular expressions: a pattern with
 * several `*` compiled to `.*` backtracks, so `https://*-*.example.com` against an 80,000
 * character host took seconds of one core. This matcher anchors the first and last literal
 * runs and finds each run between stars at its leftmost position (leftmost is always safe for
 * `*`), so the work is at most the value's length times the pattern's.
 */

/** One literal run between stars; `null` stands for `?` (any one character). */
type Run = Array<string | null>;

/** A compiled glob: the runs between its stars, and whether it has a star at all. */
interface Glob {
  runs: Run[];
  starred: boolean;
}

type Equal = (a: string, b: string) => boolean;
const exact: Equal = (a, b) => a === b;
const caseless: Equal = (a, b) => a === b || a.toLowerCase() === b.toLowerCase();

/** Splits a pattern on `*`; `?` is any one character and `\` makes the next character literal (reference syntax). */
function compile(pattern: string): Glob {
  const runs: Run[] = [[]];
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i]!;
    if (char === "\\" && i + 1 < pattern.length) runs[runs.length - 1]!.push(pattern[++i]!);
    else if (char === "*") runs.push([]);
    else runs[runs.length - 1]!.push(char === "?" ? null : char);
  }
  return { runs, starred: runs.length > 1 };
}

function runAt(value: string, at: number, run: Run, same: Equal): boolean {
  for (let i = 0; i < run.length; i++) {
    const expected = run[i];
    if (expected !== null && !same(value[at + i]!, expected!)) return false;
  }
  return true;
}

/** Leftmost position in [from, to] where `run` matches, or -1. */
function findRun(value: string, from: number, to: number, run: Run, same: Equal): number {
  for (let at = from; at <= to; at++) if (runAt(value, at, run, same)) return at;
  return -1;
}

/**
 * Compiles `pattern` once into a whole-value test: `*` spans any run of characters, `?` one
 * character, `\\` escapes the next. Time per test is bounded by `value.length * pattern.length`,
 * with no backtracking.
 */
export function globMatcher(pattern: string, ignoreCase: boolean): (value: string) => boolean {
  const { runs, starred } = compile(pattern);
  const same = ignoreCase ? caseless : exact;
  const first = runs[0]!;
  const last = runs[runs.length - 1]!;
  const middle = runs.slice(1, -1).filter((run) => run.length > 0);
  if (!starred) return (value) => value.length === first.length && runAt(value, 0, first, same);
  return (value) => {
    const end = value.length - last.length;
    if (end < first.length || !runAt(value, 0, first, same) || !runAt(value, end, last, same)) return false;
    let at = first.length;
    for (const run of middle) {
      const found = findRun(value, at, end - run.length, run, same);
      if (found < 0) return false;
      at = found + run.length;
    }
    return true;
  };
}

/** Whether `value` matches the glob `pattern` as a whole, ignoring case (trusted-origin entries). */
export const globMatch = (value: string, pattern: string): boolean => globMatcher(pattern, true)(value);
