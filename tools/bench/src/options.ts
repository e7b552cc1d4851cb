/** How long and how hard each figure is loaded. */
export interface BenchOptions {
  /** Seconds of measured load per figure and server. @default 8 (2 with --quick) */
  durationSeconds: number;
  /** Seconds of unmeasured load first, so JIT, caches and SQLite pages are warm. @default 2 (0.5 with --quick) */
  warmupSeconds: number;
  /** Concurrent connections autocannon keeps open. @default 10 */
  connections: number;
  quick: boolean;
}

const USAGE = "usage: pnpm bench [--quick] [--duration=SECONDS] [--warmup=SECONDS] [--connections=N]";

/** Parses the bench's command line; throws a TypeError with the usage on anything unknown. */
export function parseOptions(argv: readonly string[]): BenchOptions {
  // pnpm forwards a literal "--" when the caller wrote `pnpm bench -- --quick`.
  const args = argv.filter((arg) => arg !== "--");
  const quick = args.includes("--quick");
  const options: BenchOptions = {
    durationSeconds: quick ? 2 : 8,
    warmupSeconds: quick ? 0.5 : 2,
    connections: 10,
    quick,
  };
  for (const arg of args) {
    if (arg === "--quick") continue;
    const [flag, value] = arg.split("=", 2);
    if (flag === "--duration") options.durationSeconds = positive(flag, value);
    else if (flag === "--warmup") options.warmupSeconds = positive(flag, value, true);
    else if (flag === "--connections") options.connections = Math.round(positive(flag, value));
    else throw new TypeError(`unknown argument "${arg}"\n${USAGE}`);
  }
  return options;
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
