import { betterAuth } from "better-auth";
import { getMigrations } from "better-auth/db/migration";
import { createAuth } from "@latchkey/core";
import { kyselyAdapter } from "@latchkey/adapter-kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SECRET } from "./support/instances.ts";
import { openSqlite, tempDatabaseFile } from "./support/sqlite.ts";

/**
 * `baseURL: { allowedHosts, protocol }` on both implementations over one database: allowed
 * hosts behave alike; a host off the list is a divergence (DIVERGENCES.md).
 */
describe("dynamic base URL (allowedHosts)", () => {
  const baseURL = { allowedHosts: ["app.example.com", "*.preview.example.com"], protocol: "https" as const };
  const db = tempDatabaseFile();
  let reference: { handler: (r: Request) => Promise<Response> };
  let latchkey: { handler: (r: Request) => Promise<Response> };

  beforeAll(async () => {
    const options = { database: openSqlite(db.file), secret: SECRET, baseURL, emailAndPassword: { enabled: true }, logger: { disabled: true } };
    await (await getMigrations(options)).runMigrations();
    reference = betterAuth(options);
    latchkey = createAuth({ database: kyselyAdapter(openSqlite(db.file)), secret: SECRET, baseURL, emailAndPassword: { enabled: true }, logger: { disabled: true } });
  });
  afterAll(() => db.remove());

  const signUp = (host: string, email: string) =>
    new Request(`https://${host}/api/auth/sign-up/email`, {
      method: "POST",
      headers: { host, "content-type": "application/json" },
      body: JSON.stringify({ name: "Dyn", email, password: "dynamic-password-1" }),
    });
  const cookieNames = (res: Response) => res.headers.getSetCookie().map((c) => c.split("=")[0]).sort();

  it("serves an allowed and a wildcard host alike, with __Secure- cookies", async () => {
    for (const [host, email] of [["app.example.com", "dyn1@example.com"], ["pr-7.preview.example.com", "dyn2@example.com"]] as const) {
      const theirs = await reference.handler(signUp(host, `ref-${email}`));
      const ours = await latchkey.handler(signUp(host, `lk-${email}`));
      expect(theirs.status).toBe(200);
      expect(ours.status).toBe(200);
      expect(cookieNames(ours)).toEqual(cookieNames(theirs));
      expect(cookieNames(ours)).toContain("__Secure-better-auth.session_token");
    }
  });

  // Reference: resolving the base URL throws BetterAuthError for a host off the list and no
  // fallback, and its handler rejects (the server framework turns that into a 500 or worse).
  // The Host header is client input: Latchkey answers 400.
  it("a host off the list: the reference's handler throws, Latchkey answers 400 HOST_NOT_ALLOWED", async () => {
    const request = () => new Request("https://evil.example/api/auth/ok", { headers: { host: "evil.example" } });
    await expect(reference.handler(request())).rejects.toThrow(/not in the allowed hosts list/);
    const ours = await latchkey.handler(request());
    expect(ours.status).toBe(400);
    expect(await ours.json()).toEqual({ code: "HOST_NOT_ALLOWED", message: "Host is not allowed" });
  });
});
