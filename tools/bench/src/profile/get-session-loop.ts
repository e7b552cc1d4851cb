// In-process get-session loop for profiling: no HTTP server, no load generator, just
// `auth.handler(new Request(...))` with a valid cookie, so `node --cpu-prof` sees only the library.
//
//   pnpm --filter @latchkey/bench exec tsx --conditions=@latchkey/source src/profile/get-session-loop.ts [--cache] [--bearer] [--n=20000]
import Database from "better-sqlite3";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { kyselyAdapter } from "@latchkey/adapter-kysely";
import { bearer } from "@latchkey/bearer";
import { createAuth } from "@latchkey/core";

const args = process.argv.slice(2);
const flag = (name: string): boolean => args.includes(`--${name}`);
const count = Number(args.find((a) => a.startsWith("--n="))?.slice(4) ?? 20_000);
const baseURL = "http://127.0.0.1:3000";

const dir = mkdtempSync(join(tmpdir(), "lk-profile-"));
const auth = createAuth({
  database: kyselyAdapter(new Database(join(dir, "auth.db"))),
  secret: "profile-secret-profile-secret-profile-secret",
  baseURL,
  emailAndPassword: { enabled: true },
  rateLimit: { enabled: false },
  ...(flag("cache") ? { session: { cookieCache: { enabled: true } } } : {}),
  plugins: flag("bearer") ? [bearer()] : [],
});
await auth.createTables();

const signUp = await auth.handler(
  new Request(`${baseURL}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: baseURL },
    body: JSON.stringify({
      name: "Profile User",
      email: "profile@example.com",
      password: "profile-password-123",
    }),
  }),
);
const cookie = signUp.headers
  .getSetCookie()
  .map((c) => c.split(";", 1)[0])
  .join("; ");
const token = signUp.headers.get("set-auth-token");
const headers: Record<string, string> = flag("bearer") ? { authorization: `Bearer ${token}` } : { cookie };

const once = async (): Promise<void> => {
  const res = await auth.handler(new Request(`${baseURL}/api/auth/get-session`, { headers }));
  if (res.status !== 200) throw new Error(`get-session answered ${res.status}`);
  await res.text();
};

// Ten requests in flight, as the bench's ten connections keep them.
const run = async (n: number): Promise<number> => {
  const start = performance.now();
  let left = n;
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      while (left-- > 0) await once();
    }),
  );
  return n / ((performance.now() - start) / 1000);
};

await run(2_000);
const rps = await run(count);
console.log(
  `get-session in process${flag("cache") ? " (cookie cache)" : ""}${flag("bearer") ? " (bearer)" : ""}: ${Math.round(rps)} req/s over ${count}`,
);
rmSync(dir, { recursive: true, force: true });
