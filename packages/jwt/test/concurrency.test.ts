import { createAuth } from "@latchkey/core";
import { kyselyAdapter } from "@latchkey/adapter-kysely";
import { client, TEST_BASE_URL, TEST_SECRET, type TestAuth } from "@latchkey/test-support";
import type { JSONWebKeySet } from "jose";
import { afterEach, describe, expect, it, vi } from "vitest";
import { jwt, KEY_CACHE_TTL_MS, type JwkRow } from "../src/index.ts";
import { ada, jwtInstance, signedIn, verifyWithServedKeys, type DatabaseKind } from "./instance.ts";

let open: TestAuth[] = [];
afterEach(async () => {
  await Promise.all(open.map((t) => t.close()));
  open = [];
});

const keyRows = (t: TestAuth) => t.auth.$context.adapter.findMany<JwkRow & Record<string, unknown>>({ model: "jwks" });

describe.each(["sqlite", "postgres", "mysql"] as DatabaseKind[])("concurrent first use on %s", (db) => {
  it("20 parallel first /token and /jwks calls: one key, every token verifies against the served set", async () => {
    const t = await jwtInstance({}, db);
    open.push(t);
    const c = await signedIn(t);
    // Nothing has touched the key table yet: sign-up does not sign a JWT.
    expect(await keyRows(t)).toHaveLength(0);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? c.get("/token") : c.get("/jwks"))),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    // One process coalesces creation: one key, not one per request.
    expect(await keyRows(t)).toHaveLength(1);
    const keys = (await c.get("/jwks")).json as JSONWebKeySet;
    for (const [i, a] of answers.entries()) {
      if (i % 2 === 0) await verifyWithServedKeys(keys, (a.json as { token: string }).token);
      else expect(a.json).toEqual(keys);
    }
  });

  it("two nodes on one database racing on an empty table: every token verifies and both settle on one signing key", async () => {
    const t = await jwtInstance({}, db);
    open.push(t);
    const c = await signedIn(t);
    // A second node: its own instance and key store over the same database.
    const other = createAuth({
      secret: TEST_SECRET,
      baseURL: TEST_BASE_URL,
      logger: { disabled: true },
      emailAndPassword: { enabled: true },
      database: kyselyAdapter(t.database.driver),
      plugins: [jwt()],
    });
    const c2 = client(other, { headers: { cookie: c.jar.header() ?? "" } });
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? c : c2).get(i % 4 < 2 ? "/token" : "/jwks")),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    const rows = await keyRows(t);
    // At most one key per node; never a half-written row.
    expect(rows.length).toBeGreaterThanOrEqual(1);
    expect(rows.length).toBeLessThanOrEqual(2);
    const keys = (await c.get("/jwks")).json as JSONWebKeySet;
    expect(keys.keys).toHaveLength(rows.length);
    for (const a of answers) {
      const token = (a.json as { token?: string }).token;
      if (token) expect((await verifyWithServedKeys(keys, token)).email).toBe(ada.email);
    }
    // Both nodes sign with the same (newest) key once each has read the table again. A node
    // whose read-back came before the other's insert keeps its own key until its copy of the
    // keys expires (KEY_CACHE_TTL_MS); its tokens verify everywhere meanwhile (above).
    const kidOf = async (x: typeof c) =>
      JSON.parse(Buffer.from(((await x.get("/token")).json as { token: string }).token.split(".")[0]!, "base64url").toString()).kid as string;
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(Date.now() + KEY_CACHE_TTL_MS + 1_000);
      const newest = [...rows].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? -1 : 1))[0]!;
      expect(await kidOf(c)).toBe(newest.id);
      expect(await kidOf(c2)).toBe(newest.id);
    } finally {
      vi.useRealTimers();
    }
  });
});
