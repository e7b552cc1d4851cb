// Runs inside the scratch app that installed-smoke.mjs made (copied there, so every bare import
// below resolves from that app's node_modules, never the workspace). Plain Node, no export
// conditions. It loads every entry of every installed package, runs the bins, then the runtime
// smoke suite's flow (packages/runtime-tests/test/support/smoke-suite.ts) over HTTP against two
// instances: memory adapter and a better-sqlite3 file through @latchkey/adapter-kysely.
//
//   node smoke/flow.mjs @latchkey/core @latchkey/bearer ...   (LATCHKEY_SMOKE_BINS=a,b)
/* global fetch, Headers, Response */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const appDir = process.cwd();
const packages = process.argv.slice(2);
let steps = 0;

async function step(label, fn) {
  try {
    await fn();
  } catch (error) {
    console.error(`[installed-smoke] ✗ ${label}`);
    console.error(error);
    process.exit(1);
  }
  steps += 1;
  console.log(`[installed-smoke] ✓ ${label}`);
}

// 1. Every entry of every package loads from node_modules, as Node resolves it for a user.
for (const name of packages) {
  await step(`${name}: every export loads from the scratch app's node_modules`, async () => {
    const manifestPath = join(appDir, "node_modules", name, "package.json");
    const manifest = JSON.parse(readFileSync(manifestPath, "utf8"));
    for (const subpath of Object.keys(manifest.exports)) {
      const specifier = subpath === "." ? name : `${name}/${subpath.slice(2)}`;
      const file = fileURLToPath(import.meta.resolve(specifier));
      assert.ok(file.startsWith(join(appDir, "node_modules", name)), `${specifier} resolved to ${file}`);
      assert.match(file, /\/dist\/[^/]+\.js$/, `${specifier} resolved to ${file}, not a built file`);
      const mod = await import(specifier);
      assert.ok(Object.keys(mod).length > 0, `${specifier} exports nothing`);
    }
  });
}

// 2. The installed bins start (the shim over dist/ runs and answers --help).
for (const bin of (process.env.LATCHKEY_SMOKE_BINS ?? "").split(",").filter(Boolean)) {
  await step(`bin ${bin} --help exits 0`, () => {
    const res = spawnSync(join(appDir, "node_modules/.bin", bin), ["--help"], { encoding: "utf8" });
    assert.equal(res.status, 0, `${bin} --help: exit ${res.status}\n${res.stdout}${res.stderr}`);
    assert.ok(res.stdout.length > 0, `${bin} --help printed nothing`);
  });
}

// 3. The smoke flow over HTTP, on the same auth configuration and plugin as the runtime suite.
const { memoryAdapter } = await import("@latchkey/core");
const { kyselyAdapter } = await import("@latchkey/adapter-kysely");
const { serve } = await import("@hono/node-server");
const { default: Database } = await import("better-sqlite3");
const { createSmokeAuth, LIMITED_MAX } = await import("./out/smoke-auth.js");
const { LIMITED_PATH } = await import("./out/smoke-plugin.js");

const dataDir = mkdtempSync(join(tmpdir(), "latchkey-installed-smoke-db-"));
const sqlite = new Database(join(dataDir, "auth.db"));
const SESSION_COOKIE = "better-auth.session_token";
const PASSWORD = "correct horse battery staple";

const server = serve({ fetch: (request) => handler(request), hostname: "127.0.0.1", port: 0 });
await new Promise((resolve) => server.once("listening", resolve));
const origin = `http://127.0.0.1:${server.address().port}`;
const instances = {
  memory: createSmokeAuth({
    runtime: "node-installed",
    database: memoryAdapter(),
    origin,
    basePath: "/memory/api/auth",
    createTables: false,
  }),
  sqlite: createSmokeAuth({
    runtime: "node-installed",
    database: kyselyAdapter(sqlite),
    origin,
    basePath: "/sqlite/api/auth",
    createTables: true,
  }),
};
async function handler(request) {
  const auth = instances[new URL(request.url).pathname.split("/")[1]];
  return auth ? (await auth).handler(request) : new Response("no such instance", { status: 404 });
}

let nextIp = 0;
function client(base) {
  nextIp += 1;
  const ip = `10.77.0.${nextIp}`;
  const send = async (path, init = {}) => {
    const res = await fetch(`${base}${path}`, {
      ...init,
      headers: { "x-forwarded-for": ip, ...init.headers },
    });
    const text = await res.text();
    let body = text;
    try {
      body = JSON.parse(text);
    } catch {
      // Not JSON: keep the text.
    }
    return { status: res.status, headers: res.headers, body, text };
  };
  return {
    send,
    get: (path, headers = {}) => send(path, { headers }),
    post: (path, body, headers = {}) =>
      send(path, {
        method: "POST",
        headers: { "content-type": "application/json", origin, ...headers },
        body: JSON.stringify(body),
      }),
  };
}
const cookieFrom = (res, name) =>
  res.headers
    .getSetCookie()
    .find((l) => l.startsWith(`${name}=`))
    ?.split(";")[0];

try {
  for (const name of Object.keys(instances)) {
    const base = `${origin}/${name}/api/auth`;
    const email = `installed-${name}-${Date.now().toString(36)}@example.com`;
    const c = client(base);
    let cookie = "";
    let bearer = "";
    let userId = "";

    await step(`${name}: the smoke plugin's ping answers`, async () => {
      const res = await c.get("/smoke/ping");
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.pong, true);
      assert.equal(res.body.runtime, "node-installed");
    });
    await step(`${name}: signs up (200, session cookie, token)`, async () => {
      const res = await c.post("/sign-up/email", { email, password: PASSWORD, name: "Smoke" });
      assert.equal(res.status, 200, res.text);
      assert.equal(typeof res.body.token, "string");
      assert.equal(res.body.user.email, email);
      assert.equal(res.body.user.emailVerified, false);
      assert.ok(cookieFrom(res, SESSION_COOKIE));
      userId = res.body.user.id;
    });
    await step(
      `${name}: signs in (401 on a wrong password, then 200 with cookie and set-auth-token)`,
      async () => {
        const wrong = await c.post("/sign-in/email", { email, password: `${PASSWORD}!` });
        assert.equal(wrong.status, 401, wrong.text);
        assert.equal(wrong.body.code, "INVALID_EMAIL_OR_PASSWORD");
        const res = await c.post("/sign-in/email", { email, password: PASSWORD });
        assert.equal(res.status, 200, res.text);
        assert.equal(res.body.user.id, userId);
        cookie = cookieFrom(res, SESSION_COOKIE) ?? "";
        bearer = res.headers.get("set-auth-token") ?? "";
        assert.match(cookie, /^better-auth\.session_token=.+/);
        assert.match(bearer, /^[A-Za-z0-9]{32}\./);
      },
    );
    await step(`${name}: gets the session by cookie, then by Bearer alone`, async () => {
      for (const headers of [{ cookie }, { authorization: `Bearer ${bearer}` }]) {
        const res = await c.get("/get-session", headers);
        assert.equal(res.status, 200, res.text);
        assert.equal(res.body.user.id, userId);
        assert.equal(res.body.session.userId, userId);
      }
    });
    await step(
      `${name}: serves the session-protected plugin route (401 without, 200 with Bearer)`,
      async () => {
        assert.equal((await c.get("/smoke/me")).status, 401);
        const res = await c.get("/smoke/me", { authorization: `Bearer ${bearer}` });
        assert.equal(res.status, 200, res.text);
        assert.deepEqual(res.body, { email });
      },
    );
    await step(`${name}: rate-limits the custom rule (${LIMITED_MAX} requests, then 429)`, async () => {
      const limited = client(base);
      for (let i = 0; i < LIMITED_MAX; i++) assert.equal((await limited.get(LIMITED_PATH)).status, 200);
      const res = await limited.get(LIMITED_PATH);
      assert.equal(res.status, 429);
      assert.ok(Number(res.headers.get("x-retry-after")) > 0);
      assert.equal((await client(base).get(LIMITED_PATH)).status, 200);
    });
    await step(`${name}: signs out (403 without Origin, 200 with it), then no session`, async () => {
      const refused = await c.send("/sign-out", {
        method: "POST",
        headers: { "content-type": "application/json", cookie },
        body: "{}",
      });
      assert.equal(refused.status, 403, refused.text);
      assert.equal(refused.body.code, "MISSING_OR_NULL_ORIGIN");
      const res = await c.post("/sign-out", {}, { cookie });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body, { success: true });
      for (const headers of [{ cookie }, { authorization: `Bearer ${bearer}` }]) {
        const after = await c.get("/get-session", headers);
        assert.equal(after.status, 200);
        assert.equal(after.body, null);
      }
    });
  }

  // The installed typed client against the installed server, keeping the Bearer token itself.
  await step("@latchkey/client: signs up, reads the session and signs out (Bearer)", async () => {
    const { createAuthClient } = await import("@latchkey/client");
    let token = null;
    const authClient = createAuthClient({
      baseURL: `${origin}/sqlite/api/auth`,
      fetchOptions: { headers: { origin, "x-forwarded-for": "10.77.1.1" } },
      fetch: async (url, init) => {
        const headers = new Headers(init.headers);
        if (token) headers.set("authorization", `Bearer ${token}`);
        const res = await fetch(url, { ...init, headers });
        token = res.headers.get("set-auth-token") ?? token;
        return res;
      },
    });
    const email = `installed-client-${Date.now().toString(36)}@example.com`;
    const signUp = await authClient.signUp.email({ email, password: PASSWORD, name: "Client" });
    assert.equal(signUp.error, null, JSON.stringify(signUp.error));
    assert.ok(token, "no set-auth-token kept");
    const session = await authClient.getSession();
    assert.equal(session.data?.user.email, email);
    assert.ok(session.data.user.createdAt instanceof Date);
    assert.equal((await authClient.signOut()).data?.success, true);
    assert.equal((await authClient.getSession()).data, null);
  });
} finally {
  server.close();
  sqlite.close();
  rmSync(dataDir, { recursive: true, force: true });
}
console.log(`[installed-smoke] ${steps} steps ok on the installed packages`);

// With its server closed, a user's process should be free to exit. Say what still holds it.
await new Promise((resolve) => setTimeout(resolve, 200));
const holding = process
  .getActiveResourcesInfo()
  .filter((kind) => !["PipeWrap", "TTYWrap", "Timeout"].includes(kind));
if (holding.length > 0) {
  console.log(
    `[installed-smoke] FAILED: ${holding.join(", ")} still holds the event loop after the server closed ` +
      "(a Node process using these packages would not exit on its own)",
  );
  process.exit(1);
}
process.exit(0);
