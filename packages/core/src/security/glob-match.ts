/**
 * The reference's glob (its `wildcardMatch` with `/` as separator, used for trusted origins
 * and rate-limit keys), matched by simulating an automaton instead of a backtracking regular
 * expression: `https://*-*.example.com` compiled to a regex took seconds of one core on an
 * 80,000-character host. Here the work is at most the value's length times the pattern's.
 *
 * Syntax, as the reference reads it: the pattern is split on `/`; within a segment `*` is
 * any run of characters other than `/` and `\`, `?` one such character, and `\` makes the
 * next character literal; between segments one or more separators (`/` or `\`) are required,
 * after the last one they are optional; empty segments are skipped; a `**` segment spans any
 * number of whole segments.
 */

/** One automaton state: consume a character that passes `test`, or fork without consuming. */
type State = { test: (char: string) => boolean; next: number } | { fork: [number, number] };

const isSeparator = (char: string): boolean => char === "/" || char === "\\";
const notSeparator = (char: string): boolean => !isSeparator(char);
const ACCEPT = -1;

/** Builds the automaton back to front; each `add*` returns the index where its part starts. */
class Builder {
  readonly states: State[] = [];

  char(test: (char: string) => boolean, next: number): number {
    this.states.push({ test, next });
    return this.states.length - 1;
  }

  /** Zero or more characters passing `test`. */
  star(test: (char: string) => boolean, next: number): number {
    const fork = this.states.push({ fork: [0, next] }) - 1;
    (this.states[fork] as { fork: [number, number] }).fork[0] = this.char(test, fork);
    return fork;
  }

  /** Separators between segments: one or more when `required`, else zero or more. */
  separators(required: boolean, next: number): number {
    const rest = this.star(isSeparator, next);
    return required ? this.char(isSeparator, rest) : rest;
  }

  /** `**`: any number of (non-separators, then separators), as the reference's group. */
  segments(required: boolean, next: number): number {
    const fork = this.states.push({ fork: [0, next] }) - 1;
    const body = this.star(notSeparator, this.separators(required, fork));
    (this.states[fork] as { fork: [number, number] }).fork[0] = body;
    return fork;
  }

  /** One segment's characters: literals, `?`, `*`, `\` escapes (a trailing `\` is dropped). */
  segment(text: string, next: number): number {
    const parts: Array<(next: number) => number> = [];
    for (let i = 0; i < text.length; i++) {
      const char = text[i]!;
      if (char === "\\") {
        if (i + 1 < text.length) {
          const literal = text[++i]!;
          parts.push((n) => this.char((c) => c === literal, n));
        }
      } else if (char === "?") parts.push((n) => this.char(notSeparator, n));
      else if (char === "*") parts.push((n) => this.star(notSeparator, n));
      else parts.push((n) => this.char((c) => c === char, n));
    }
    return parts.reduceRight((at, part) => part(at), next);
  }
}

/** Compiles `pattern` as the reference's `transform` does, into states and a start index. */
function compile(pattern: string): { states: State[]; start: number } {
  const builder = new Builder();
  const segments = pattern.split("/");
  let at = ACCEPT;
  // Back to front: each segment is compiled knowing where the rest of the pattern starts.
  for (let s = segments.length - 1; s >= 0; s--) {
    const segment = segments[s]!;
    if (!segment && s > 0) continue;
    const last = s === segments.length - 1;
    // Separator after this segment: optional after the last, none before a `**` (it has its own).
    const separator = last ? "optional" : segments[s + 1] !== "**" ? "required" : "none";
    if (segment === "**") {
      if (separator !== "none") {
        at = builder.segments(separator === "required", at);
        if (s > 0) at = builder.separators(separator === "required", at);
      }
      continue;
    }
    if (separator !== "none") at = builder.separators(separator === "required", at);
    at = builder.segment(segment, at);
  }
  return { states: builder.states, start: at };
}

/** Consuming states reachable from `index` without consuming, and whether the end is. */
function closure(states: State[], index: number): { consuming: number[]; accepts: boolean } {
  const seen = new Set<number>();
  const consuming: number[] = [];
  const stack = [index];
  while (stack.length) {
    const at = stack.pop()!;
    if (seen.has(at)) continue;
    seen.add(at);
    if (at === ACCEPT) continue;
    const state = states[at]!;
    if ("fork" in state) stack.push(state.fork[0], state.fork[1]);
    else consuming.push(at);
  }
  return { consuming, accepts: seen.has(ACCEPT) };
}

/**
 * Compiles `pattern` once into a whole-value test with the reference's glob rules (see the
 * file comment). Case-sensitive, as the reference. Linear in the value, no backtracking.
 */
export function globMatcher(pattern: string): (value: string) => boolean {
  const { states, start } = compile(pattern);
  // Where each consuming state leads, closed over forks once, so a step is a table lookup.
  const after = states.map((state) => ("test" in state ? closure(states, state.next) : undefined));
  const initial = closure(states, start);
  const stamp = new Int32Array(states.length).fill(-1);
  return (value) => {
    let current = initial.consuming;
    let accepts = initial.accepts;
    let i = 0;
    for (; i < value.length && current.length; i++) {
      const char = value[i]!;
      const next: number[] = [];
      accepts = false;
      for (const at of current) {
        const state = states[at] as { test: (char: string) => boolean };
        if (!state.test(char)) continue;
        const reach = after[at]!;
        if (reach.accepts) accepts = true;
        for (const to of reach.consuming) {
          if (stamp[to] === i) continue;
          stamp[to] = i;
          next.push(to);
        }
      }
      current = next;
    }
    // Stamps are per call: clear them for the next value.
    stamp.fill(-1);
    // Stopping early (no live state) before the last character is a mismatch.
    return i === value.length && accepts;
  };
}

/** Whether `value` matches the glob `pattern` as a whole (trusted-origin entries). */
export const globMatch = (value: string, pattern: string): boolean => globMatcher(pattern)(value);
