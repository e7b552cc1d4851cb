// In-process loop of one scale-scenario request on either implementation, for profiling and for
// a figure that holds up on a busy machine: CPU time per request (process.cpuUsage), not rps.
// No HTTP, no load generator: `auth.handler(new Request(...))`, ten in flight.
//
//   pnpm --filter @latchkey/bench exec tsx --conditions=@latchkey/source src/profile/scenario-loop.ts \
//     --figure=client-credentials|introspect|api-key|list-members|get-active-member|has-permission
//     [--impl=latchkey|reference] [--n=3000]
// The organization figures seed issue #12's organization of 10,000 members (list-members: 100 from offset 5,000).
// For a .cpuprofile: `node --cpu-prof --import tsx --conditions=@latchkey/source src/profile/scenario-loop.ts …`.
// SQL_LOG=1 prints the statements one request runs;
// KEEP_DB=1 keeps the SQLite file (its directory is printed) for timing statements on it;
// SQL_TIME=1 prints the time spent in better-sqlite3 per request, in all and per statement.
import Database from "better-sqlite3";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const args = process.argv.slice(2);
const value = (name: string, fallback: string): string =>
  args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const figure = value("figure", "client-credentials");
const impl = value("impl", "latchkey");
const count = Number(value("n", "3000"));
const baseURL = "http://127.0.0.1:3000";
const secret = "profile-secret-profile-secret-profile-secret";

const dir = mkdtempSync(join(tmpdir(), "lk-scenario-"));
const database = new Database(join(dir, "auth.db"));
// As the scale groups run their servers (DatabaseConfig.wal): no fsync per commit.
database.pragma("journal_mode = WAL");
database.pragma("synchronous = NORMAL");
const oauthOptions = {
  loginPage: "/login",
  consentPage: "/consent",
  scopes: ["openid", "profile", "email", "offline_access", "read"],
  storeClientSecret: "hashed",
};
const organizationFigures = ["list-members", "get-active-member", "has-permission"];
const isOrganization = organizationFigures.includes(figure);
const apiKeyOptions = { enableSessionForAPIKeys: true, rateLimit: { enabled: true, maxRequests: 1_000_000_000 } };

// SQL_LOG and SQL_TIME: every statement's runs seen, through one wrapper installed before the
// library prepares any. `logged` collects texts while it is an array; the times always add up.
let sqlMicros = 0;
const perSql = new Map<string, number>();
let logged: string[] | null = null;
if (process.env.SQL_TIME || process.env.SQL_LOG) {
  const original = database.prepare.bind(database);
  (database as { prepare: unknown }).prepare = (sql: string) => {
    const statement = original(sql) as unknown as Record<string, (...a: unknown[]) => unknown>;
    for (const method of ["run", "get", "all", "iterate"]) {
      const run = statement[method]!.bind(statement);
      statement[method] = (...a: unknown[]) => {
        logged?.push(`${method}: ${sql.slice(0, 150)}`);
        const s = performance.now();
        try {
          return run(...a);
        } finally {
          const micros = (performance.now() - s) * 1000;
          sqlMicros += micros;
          perSql.set(sql.slice(0, 60), (perSql.get(sql.slice(0, 60)) ?? 0) + micros);
        }
      };
    }
    return statement;
  };
}

type Handler = (request: Request) => Promise<Response>;
let handler: Handler;
if (impl === "latchkey") {
  const { createAuth } = await import("@latchkey/core");
  const { kyselyAdapter } = await import("@latchkey/adapter-kysely");
  const { jwt } = await import("@latchkey/jwt");
  const { oauthProvider } = await import("@latchkey/oauth-provider");
  const { apiKey } = await import("@latchkey/api-key");
  // Not a dependency of the bench (its servers bundle plugins by path): imported by path too.
  const { organization } = await import("../../../../packages/organization/src/index.js");
  const auth = createAuth({
    database: kyselyAdapter(database),
    secret,
    baseURL,
    emailAndPassword: { enabled: true },
    rateLimit: { enabled: false },
    plugins: isOrganization
      ? [organization()]
      : figure === "api-key"
        ? [apiKey(apiKeyOptions)]
        : [jwt({ jwks: { keyPairConfig: { alg: "EdDSA", crv: "Ed25519" } } }), oauthProvider(oauthOptions as never)],
  });
  await auth.createTables();
  handler = (request) => auth.handler(request);
} else {
  const { betterAuth } = await import("better-auth");
  const { getMigrations } = await import("better-auth/db/migration");
  const { jwt } = await import("better-auth/plugins");
  const { oauthProvider } = await import("@better-auth/oauth-provider");
  const { apiKey } = await import("@better-auth/api-key");
  const { organization } = await import("better-auth/plugins");
  const options = {
    database,
    secret,
    baseURL,
    emailAndPassword: { enabled: true },
    rateLimit: { enabled: false },
    plugins: isOrganization
      ? [organization()]
      : figure === "api-key"
        ? [apiKey(apiKeyOptions)]
        : [jwt({ jwks: { keyPairConfig: { alg: "EdDSA", crv: "Ed25519" } } }), oauthProvider(oauthOptions as never)],
  };
  await (await getMigrations(options as never)).runMigrations();
  const auth = betterAuth(options as never) as { handler: Handler };
  handler = (request) => auth.handler(request);
}

const call = async (path: string, init: RequestInit = {}): Promise<Response> =>
  handler(new Request(`${baseURL}/api/auth${path}`, init));
const json = (cookie: string) => ({ "content-type": "application/json", origin: baseURL, cookie });

const signUp = await call("/sign-up/email", {
  method: "POST",
  headers: json(""),
  body: JSON.stringify({ name: "Profile User", email: "profile@example.com", password: "profile-password-123" }),
});
const cookie = signUp.headers
  .getSetCookie()
  .map((c) => c.split(";", 1)[0])
  .join("; ");

let request: () => Request;
if (isOrganization) request = await seedOrganization();
else if (figure === "api-key") {
  const created = (await (await call("/api-key/create", { method: "POST", headers: json(cookie), body: "{}" })).json()) as { key: string };
  request = () => new Request(`${baseURL}/api/auth/get-session`, { headers: { "x-api-key": created.key } });
} else {
  const client = (await (
    await call("/oauth2/create-client", {
      method: "POST",
      headers: json(cookie),
      body: JSON.stringify({ redirect_uris: ["https://c.example/cb"], grant_types: ["client_credentials"], response_types: [], token_endpoint_auth_method: "client_secret_basic" }),
    })
  ).json()) as { client_id: string; client_secret: string };
  database.prepare(`update "oauthClient" set "clientCredentialsScopes" = '["read"]' where "clientId" = ?`).run(client.client_id);
  const basic = `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString("base64")}`;
  const form = (path: string, fields: Record<string, string>) => () =>
    new Request(`${baseURL}/api/auth${path}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", authorization: basic },
      body: new URLSearchParams(fields).toString(),
    });
  if (figure === "client-credentials") request = form("/oauth2/token", { grant_type: "client_credentials", scope: "read" });
  else {
    const tokens = (await (await handler(form("/oauth2/token", { grant_type: "client_credentials", scope: "read", resource: `${baseURL}/api/auth/oauth2/userinfo` })())).json()) as { access_token: string };
    request = form("/oauth2/introspect", { token: tokens.access_token });
  }
}

/** The bench's organization: created through the API, 9,999 more users and members copied in by SQL. */
async function seedOrganization(): Promise<() => Request> {
  const org = (await (
    await call("/organization/create", { method: "POST", headers: json(cookie), body: JSON.stringify({ name: "Org", slug: "org" }) })
  ).json()) as { id: string };
  await call("/organization/set-active", { method: "POST", headers: json(cookie), body: JSON.stringify({ organizationId: org.id }) });
  const user = database.prepare(`select * from "user"`).get() as Record<string, unknown>;
  const owner = database.prepare(`select * from "member"`).get() as Record<string, unknown>;
  const copy = (table: string, template: Record<string, unknown>, vary: (i: number) => Record<string, unknown>) => {
    const columns = Object.keys(template);
    const insert = database.prepare(`insert into "${table}" (${columns.map((c) => `"${c}"`).join(", ")}) values (${columns.map(() => "?").join(", ")})`);
    database.transaction(() => {
      for (let i = 0; i < 9_999; i++) {
        const row = { ...template, ...vary(i) };
        insert.run(...columns.map((c) => row[c]));
      }
    })();
  };
  copy("user", user, (i) => ({ id: `u${i}`, email: `user-${i}@example.com`, name: `User ${i}` }));
  copy("member", owner, (i) => ({ id: `m${i}`, userId: `u${i}`, role: "member" }));
  const headers = json(cookie);
  if (figure === "has-permission") {
    return () => new Request(`${baseURL}/api/auth/organization/has-permission`, { method: "POST", headers, body: JSON.stringify({ permissions: { member: ["create"] } }) });
  }
  const path = figure === "list-members" ? "/organization/list-members?limit=100&offset=5000" : "/organization/get-active-member";
  return () => new Request(`${baseURL}/api/auth${path}`, { headers: { cookie } });
}

if (process.env.SQL_LOG) {
  logged = [];
  await handler(request()).then((r) => r.text());
  console.log(`${logged.length} statements in one request:\n${logged.join("\n")}`);
  logged = null;
}
const once = async (): Promise<void> => {
  const res = await handler(request());
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${figure} answered ${res.status}: ${text}`);
};
const run = async (n: number): Promise<{ rps: number; cpuMicros: number }> => {
  const cpu = process.cpuUsage();
  const start = performance.now();
  let left = n;
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      while (left-- > 0) await once();
    }),
  );
  const used = process.cpuUsage(cpu);
  return { rps: n / ((performance.now() - start) / 1000), cpuMicros: (used.user + used.system) / n };
};

await run(Math.min(500, count));
sqlMicros = 0;
perSql.clear();
const { rps, cpuMicros } = await run(count);
console.log(`${impl} ${figure} in process: ${Math.round(cpuMicros)} µs CPU per request, ${Math.round(rps)} req/s over ${count}`);
if (process.env.SQL_TIME) {
  console.log(`SQL: ${Math.round(sqlMicros / count)} µs per request`);
  for (const [text, micros] of perSql) console.log(`${String(Math.round(micros / count)).padStart(6)} µs  ${text}`);
}
if (process.env.KEEP_DB) console.log(dir); else rmSync(dir, { recursive: true, force: true });
