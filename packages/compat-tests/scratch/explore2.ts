import Database from "better-sqlite3";
import { betterAuth } from "better-auth";
import { getMigrations } from "better-auth/db/migration";
import { createAuth } from "@latchkey/core";
import { kyselyAdapter } from "@latchkey/adapter-kysely";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const origin = process.argv[2] === "origin";
const file = join(mkdtempSync(join(tmpdir(), "cmp-")), "db.sqlite");
const secret = "compat-secret-0123456789-abcdefghijklmnopqrstuvwxyz";
const baseURL = "http://localhost:3000";
const advanced = origin ? { disableOriginCheck: false, disableCSRFCheck: false } : undefined;
const opts = { database: new Database(file), secret, baseURL, emailAndPassword: { enabled: true }, rateLimit: { enabled: false }, advanced };
const { runMigrations } = await getMigrations(opts);
await runMigrations();
const ref = betterAuth(opts);
const lk = createAuth({ database: kyselyAdapter(new Database(file)), secret, baseURL, emailAndPassword: { enabled: true }, advanced });
await lk.createTables();

async function both(label: string, path: string, init: RequestInit, raw = false) {
  for (const [name, h] of [["ref", ref.handler], ["lk ", lk.handler]] as const) {
    const r = await h(new Request(raw ? path : baseURL + "/api/auth" + path, init));
    const hs: string[] = [];
    r.headers.forEach((v, k) => { if (k !== "set-cookie") hs.push(`${k}=${v}`); });
    console.log(label, name, r.status, r.statusText, hs.join(" | "), JSON.stringify(r.headers.getSetCookie()), (await r.text()).slice(0, 250));
  }
}
const j = (b: unknown, h: Record<string, string> = {}) => ({ method: "POST", headers: { "content-type": "application/json", ...h }, body: JSON.stringify(b) });
const su = await ref.handler(new Request(baseURL + "/api/auth/sign-up/email", j({ name: "A", email: "a@x.com", password: "password123" })));
const cookie = su.headers.getSetCookie()[0]!.split(";")[0]!;
const token = ((await su.json()) as { token: string }).token;
await both("getsess-cookie", "/get-session", { headers: { cookie } });
await both("getsess-bearer", "/get-session", { headers: { authorization: `Bearer ${token}` } });
await both("getsess-tamper", "/get-session", { headers: { cookie: cookie.slice(0, -5) + "AAAA%3D" } });
await both("getsess-none", "/get-session", {});
await both("signout-none", "/sign-out", j({}));
await both("signout-nobody", "/sign-out", { method: "POST" });
await both("signin-wrongpw", "/sign-in/email", j({ email: "a@x.com", password: "password124" }));
await both("signin-unknown", "/sign-in/email", j({ email: "b@x.com", password: "password124" }));
await both("signin-bademail", "/sign-in/email", j({ email: "bx.com", password: "password124" }));
await both("signin-form", "/sign-in/email", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "email=a%40x.com&password=password123" });
await both("signin-cb", "/sign-in/email", j({ email: "a@x.com", password: "password123", callbackURL: "http://localhost:3000/x" }));
await both("signin-cb-evil", "/sign-in/email", j({ email: "a@x.com", password: "password123", callbackURL: "http://evil.com/x" }));
await both("signin-cookie-evil", "/sign-in/email", j({ email: "a@x.com", password: "password123" }, { cookie, origin: "http://evil.com" }));
await both("signin-cookie-noorigin", "/sign-in/email", j({ email: "a@x.com", password: "password123" }, { cookie }));
await both("signin-cookie-goodorigin", "/sign-in/email", j({ email: "a@x.com", password: "password123" }, { cookie, origin: "http://localhost:3000" }));
await both("signin-secfetch", "/sign-in/email", j({ email: "a@x.com", password: "password123" }, { "sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate" }));
await both("signout-cookie-evil", "/sign-out", j({}, { cookie, origin: "http://evil.com" }));
await both("wrong-method", "/sign-in/email", { method: "GET" });
await both("put-ok", "/ok", { method: "PUT" });
await both("trailing", "/sign-in/email/", j({ email: "a@x.com", password: "password123" }));
await both("outside", baseURL + "/other", { method: "GET" }, true);
await both("signup-long", "/sign-up/email", j({ name: "A", email: "c@x.com", password: "x".repeat(129) }));
await both("signup-short", "/sign-up/email", j({ name: "A", email: "c@x.com", password: "x".repeat(7) }));
await both("signup-empty", "/sign-up/email", j({ name: "A", email: "c@x.com", password: "" }));
await both("signup-array", "/sign-up/email", j([1, 2]));
await both("signup-nested", "/sign-up/email", j({ name: { a: 1 }, email: "c@x.com", password: "password123" }));
await both("signup-extra", "/sign-up/email", j({ name: "B", email: "d@x.com", password: "password123", role: "admin", emailVerified: true }));
await both("signup-huge", "/sign-up/email", j({ name: "B".repeat(100000), email: "e@x.com", password: "password123" }));
await both("signup-pwnum", "/sign-up/email", j({ name: "B", email: "f@x.com", password: 12345678 }));
await both("signout-cookie", "/sign-out", j({}, { cookie }));
