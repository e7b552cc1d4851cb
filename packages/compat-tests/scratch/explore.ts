import Database from "better-sqlite3";
import { betterAuth } from "better-auth";
import { getMigrations } from "better-auth/db/migration";
import { createAuth } from "@latchkey/core";
import { kyselyAdapter } from "@latchkey/adapter-kysely";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const file = join(mkdtempSync(join(tmpdir(), "cmp-")), "db.sqlite");
const secret = "compat-secret-0123456789-abcdefghijklmnopqrstuvwxyz";
const baseURL = "http://localhost:3000";
const opts = { database: new Database(file), secret, baseURL, emailAndPassword: { enabled: true }, rateLimit: { enabled: false } };
const { runMigrations, compileMigrations } = await getMigrations(opts);
console.log(await compileMigrations());
await runMigrations();
const ref = betterAuth(opts);
const lk = createAuth({ database: kyselyAdapter(new Database(file)), secret, baseURL, emailAndPassword: { enabled: true } });
await lk.createTables();

async function both(path: string, init: RequestInit) {
  for (const [name, h] of [["ref", ref.handler], ["lk", lk.handler]] as const) {
    const r = await h(new Request(baseURL + "/api/auth" + path, init));
    console.log(name, path, r.status, r.headers.get("content-type"), JSON.stringify(r.headers.getSetCookie()), (await r.text()).slice(0, 300));
  }
}
const j = (b: unknown) => ({ method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(b) });
await both("/sign-up/email", j({ name: "A", email: "a@x.com", password: "password123" }));
await both("/sign-up/email", j({ email: "a@x.com", password: "password123" }));
await both("/sign-up/email", j({ name: 1, email: "bad", password: "short" }));
await both("/sign-up/email", { method: "POST", headers: { "content-type": "application/json" }, body: "null" });
await both("/sign-up/email", { method: "POST", headers: { "content-type": "application/json" }, body: "{bad" });
await both("/sign-up/email", { method: "POST", headers: { "content-type": "text/plain" }, body: "x" });
await both("/sign-up/email", { method: "POST" });
await both("/sign-in/email", j({ email: "a@x.com", password: "password123", rememberMe: false, callbackURL: "/dash" }));
await both("/get-session", { method: "POST" });
await both("/nope", { method: "GET" });
await both("/ok", { method: "GET" });
await both("/ok/", { method: "GET" });
