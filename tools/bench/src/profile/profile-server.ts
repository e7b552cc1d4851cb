// Profiles one bench server under one figure's load: the same esbuild bundle, the same
// @hono/node-server layer and the same autocannon load as `pnpm bench`, the server profiled
// through the inspector (see cpu-profile-preload.mjs). Prints rps, latency and the CPU time the
// server (and the database) spent per request; writes the .cpuprofile to --out.
//
//   pnpm --filter @latchkey/bench profile [--impl=latchkey|reference] [--db=sqlite|postgres] [--cache]
//     [--redis] [--bearer] [--figure=sign-in] [--seconds=10] [--out=/tmp/prof] [--no-prof]
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { buildServers } from "../build.js";
import { startServer } from "../child-server.js";
import { figureRequest, type FigureName } from "../figures.js";
import { runLoad } from "../load.js";
import { seedUser } from "../seed.js";
import { openStores } from "../stores.js";

const args = process.argv.slice(2);
const value = (name: string, fallback: string): string =>
  args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const flag = (name: string): boolean => args.includes(`--${name}`);
const impl = value("impl", "latchkey") as "latchkey" | "reference";
const seconds = Number(value("seconds", "10"));
const out = value("out", "/tmp/prof");

// Only the bearer plugin: discovering every package would import plugins other work has half-built.
const bearerEntry = fileURLToPath(new URL("../../../../packages/bearer/src/index.ts", import.meta.url));
const entries = await buildServers({
  plugins: [{ id: "bearer", packageName: "@latchkey/bearer", entry: bearerEntry, factory: "bearer" }],
  skipped: [],
  unmapped: [],
});
const stores = await openStores();
mkdirSync(out, { recursive: true });
// NODE_OPTIONS does not take --cpu-prof: a preload profiles through the inspector instead.
process.env.PROFILE_DIR = out;
process.env.PROFILE_CPU = flag("no-prof") ? "0" : "1";
process.env.NODE_OPTIONS = `--import=${new URL("./cpu-profile-preload.mjs", import.meta.url).href}`;

/** CPU time of every postgres and redis-server process on the machine, in microseconds. */
const databaseMicros = (): number => {
  let total = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      if (/\((postgres|redis-server)\)/.test(stat)) total += cpuMicros(entry);
    } catch {
      // The process ended meanwhile.
    }
  }
  return total;
};

/** User + system CPU time of a process so far, in microseconds (/proc, clock ticks of 10 ms). */
const cpuMicros = (pid: string): number => {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
};

try {
  const server = await startServer(impl, entries[impl], {
    secret: "bench-secret-bench-secret-bench-secret-123",
    database: value("db", "sqlite") === "postgres" ? await stores.postgres() : stores.sqlite(impl),
    cookieCache: flag("cache"),
    redis: flag("redis") ? stores.redis() : null,
    plugins: flag("bearer") ? ["bearer"] : [],
    migrate: true,
  });
  delete process.env.NODE_OPTIONS;
  try {
    const user = await seedUser(server.baseURL);
    const figure = value("figure", flag("bearer") ? "get-session-bearer" : "get-session") as FigureName;
    const request = figureRequest(figure, server.baseURL, user);
    await runLoad(server.baseURL, request, 10, { seconds: 2 });
    const pid = readFileSync(`${out}/server.pid`, "utf8");
    const before = cpuMicros(pid);
    const databaseBefore = databaseMicros();
    const m = await runLoad(server.baseURL, request, 10, { seconds });
    const perRequest = (cpuMicros(pid) - before) / m.requests;
    const database = (databaseMicros() - databaseBefore) / m.requests;
    console.log(
      `${impl}: ${Math.round(m.rps)} rps, p50 ${m.p50} ms, p99 ${m.p99} ms, non-2xx ${m.non2xx}; server CPU ${Math.round(perRequest)} µs/request, PostgreSQL and Redis ${Math.round(database)} µs/request`,
    );
  } finally {
    await server.stop();
  }
} finally {
  await stores.cleanup();
}
