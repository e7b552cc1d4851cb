import type { TypesMode } from "./typecheck/latchkey-types.js";

/** The figure groups, in the order a run measures them. */
export const GROUPS = [
  "bundle",
  "typecheck",
  "cold-start",
  "get-session",
  "sign",
  "plugins",
  "memory",
] as const;

/**
 * Groups measured only when named (`pnpm bench scale`, or each by name): the scale scenarios of
 * issues #11-#13, which seed large tables first and would double a default run's length.
 */
export const SCALE_GROUPS = ["organization", "credentials", "oauth-provider"] as const;
export type GroupName = (typeof GROUPS)[number] | (typeof SCALE_GROUPS)[number];

/** Every group in run order: the default ones, then the scale scenarios. */
const RUN_ORDER: readonly GroupName[] = [...GROUPS, ...SCALE_GROUPS];

/** How long and how hard each figure is loaded, and which groups run. */
export interface BenchOptions {
  /** Seconds of measured load per round, figure and server. @default 5 (2 with --quick) */
  durationSeconds: number;
  /** Rounds per figure: the servers take turns, and each statistic is the median over rounds. @default 3 (1 with --quick) */
  rounds: number;
  /** Seconds of unmeasured load first, so JIT, caches and database pages are warm. @default 2 (0.5 with --quick) */
  warmupSeconds: number;
  /** Concurrent connections autocannon keeps open. @default 10 */
  connections: number;
  quick: boolean;
  /** The groups to run. @default every group */
  groups: GroupName[];
  /** Where the typecheck group takes Latchkey's types: built dist if possible (auto), dist, or source. @default "auto" */
  typesFrom: TypesMode;
}

const USAGE =
  "usage: pnpm bench [GROUP ...] [--quick] [--only=GROUP,...] [--rounds=N] [--duration=SECONDS] [--warmup=SECONDS] [--connections=N] [--types=auto|dist|source]\n" +
  `groups: ${GROUPS.join(", ")} (the default); ${SCALE_GROUPS.join(", ")} (only when named; "scale" names all three)`;

/** Names accepted in --only besides the group names themselves. */
const ALIASES: Record<string, GroupName | readonly GroupName[]> = {
  scale: SCALE_GROUPS,
  organisation: "organization",
  "api-key": "credentials",
  "verify-totp": "credentials",
  oauth: "oauth-provider",
  "sign-in": "sign",
  "sign-up": "sign",
  "event-loop": "sign",
  coldstart: "cold-start",
  types: "typecheck",
  tsc: "typecheck",
};

/** Parses the bench's command line; throws a TypeError with the usage on anything unknown. */
export function parseOptions(argv: readonly string[]): BenchOptions {
  // pnpm forwards a literal "--" when the caller wrote `pnpm bench -- --quick`.
  const args = argv.filter((arg) => arg !== "--");
  const quick = args.includes("--quick");
  const options: BenchOptions = {
    durationSeconds: quick ? 2 : 5,
    rounds: quick ? 1 : 3,
    warmupSeconds: quick ? 0.5 : 2,
    connections: 10,
    quick,
    groups: [...GROUPS],
    typesFrom: "auto",
  };
  // `pnpm bench typecheck` is `--only=typecheck`: bare names select groups.
  const named = args.filter((arg) => !arg.startsWith("--"));
  if (named.length) options.groups = groups(named.join(","));
  for (const arg of args) {
    if (arg === "--quick" || !arg.startsWith("--")) continue;
    const [flag, value] = arg.split("=", 2);
    if (flag === "--duration") options.durationSeconds = positive(flag, value);
    else if (flag === "--warmup") options.warmupSeconds = positive(flag, value, true);
    else if (flag === "--connections") options.connections = Math.round(positive(flag, value));
    else if (flag === "--rounds") options.rounds = Math.round(positive(flag, value));
    else if (flag === "--only") options.groups = groups([value ?? "", ...named].join(","));
    else if (flag === "--types") options.typesFrom = typesMode(value);
    else throw new TypeError(`unknown argument "${arg}"\n${USAGE}`);
  }
  return options;
}

/** Whether the run measured every group (only such a run may replace latest.md and docs/benchmarks.md). */
export function isComplete(options: BenchOptions): boolean {
  return GROUPS.every((group) => options.groups.includes(group));
}

function groups(value: string | undefined): GroupName[] {
  const wanted = new Set<GroupName>();
  for (const name of (value ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    const group = RUN_ORDER.includes(name as GroupName) ? (name as GroupName) : ALIASES[name];
    if (!group) throw new TypeError(`--only: unknown group "${name}"\n${USAGE}`);
    for (const one of typeof group === "string" ? [group] : group) wanted.add(one);
  }
  if (!wanted.size) throw new TypeError(`--only needs at least one group\n${USAGE}`);
  // Always in run order, whatever order the caller wrote.
  return RUN_ORDER.filter((group) => wanted.has(group));
}

function typesMode(value: string | undefined): TypesMode {
  if (value === "auto" || value === "dist" || value === "source") return value;
  throw new TypeError(`--types needs auto, dist or source\n${USAGE}`);
}

function positive(flag: string, value: string | undefined, zeroAllowed = false): number {
  const number = Number(value);
  if (
    value === undefined ||
    value === "" ||
    !Number.isFinite(number) ||
    number < 0 ||
    (number === 0 && !zeroAllowed)
  ) {
    throw new TypeError(`${flag} needs a positive number\n${USAGE}`);
  }
  return number;
}
