import { client, type TestAuth } from "@latchkey/test-support";
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from "jose";
import { afterEach, describe, expect, it } from "vitest";
import type { JwkRow, NewJwkRow } from "../src/index.ts";
import { jwtApi, jwtInstance, probedInstance, signedIn, verifyWithServedKeys, type DatabaseKind } from "./instance.ts";

let open: TestAuth[] = [];
afterEach(async () => {
  await Promise.all(open.map((t) => t.close()));
  open = [];
});

describe.each(["sqlite", "postgres"] as DatabaseKind[])("schema overrides on %s", (db) => {
  it("another table and column names: keys are written there, served and used", async () => {
    const t = await jwtInstance(
      { schema: { jwks: { modelName: "signing_keys", fields: { publicKey: "public_jwk", privateKey: "private_jwk", createdAt: "created_at" } } } },
      db,
    );
    open.push(t);
    const c = await signedIn(t);
    const keys = (await c.get("/jwks")).json as JSONWebKeySet;
    const { token } = (await c.get("/token")).json as { token: string };
    await verifyWithServedKeys(keys, token);
    // The physical table and columns, read with the driver itself.
    const sql = "select id, public_jwk, private_jwk, created_at from signing_keys";
    const physical =
      db === "sqlite"
        ? (t.database.driver as { prepare(q: string): { all(): unknown[] } }).prepare(sql).all()
        : (await (t.database.driver as { query(q: string): Promise<{ rows: unknown[] }> }).query(sql)).rows;
    expect(physical).toHaveLength(1);
    expect(JSON.parse((physical[0] as { public_jwk: string }).public_jwk)).toMatchObject({ kty: "OKP" });
    const rows = await t.auth.$context.adapter.findMany<JwkRow & Record<string, unknown>>({ model: "jwks" });
    expect(rows.map((r) => r.id)).toEqual([keys.keys[0]!.kid]);
  });
});

describe("custom adapter", () => {
  it("getJwks and createJwk replace the table: keys live in the application's store", async () => {
    const stored: JwkRow[] = [];
    const seen: unknown[] = [];
    const t = await probedInstance({
      adapter: {
        getJwks: async (ctx) => {
          seen.push(ctx.context.baseURL);
          return stored;
        },
        createJwk: async (data: NewJwkRow) => {
          const row = { ...data, id: `app-${stored.length + 1}` };
          stored.push(row);
          return row;
        },
      },
    });
    open.push(t);
    const c = await signedIn(t);
    const { token } = (await c.get("/token")).json as { token: string };
    expect(decodeProtectedHeader(token).kid).toBe("app-1");
    const keys = (await c.get("/jwks")).json as JSONWebKeySet;
    expect(keys.keys.map((k) => k.kid)).toEqual(["app-1"]);
    await verifyWithServedKeys(keys, token);
    expect((await jwtApi(t).verifyJWT({ body: { token } })).payload).toMatchObject({ email: "ada@example.com" });
    // Nothing went to the table; the store saw the instance's context.
    expect(await t.auth.$context.adapter.findMany({ model: "jwks" })).toHaveLength(0);
    expect(seen[0]).toBe("http://localhost:3000/api/auth");
  });

  it("getJwks alone: keys it returns are used, new keys still go to the table", async () => {
    const fromTable = async (t: TestAuth) => t.auth.$context.adapter.findMany<JwkRow & Record<string, unknown>>({ model: "jwks" });
    const holder: { t?: TestAuth } = {};
    const t = await jwtInstance({ adapter: { getJwks: async () => fromTable(holder.t!) } });
    holder.t = t;
    open.push(t);
    const c = await signedIn(t);
    await client(t.auth).get("/jwks");
    expect(await fromTable(t)).toHaveLength(1);
    const keys = (await c.get("/jwks")).json as JSONWebKeySet;
    const { token } = (await c.get("/token")).json as { token: string };
    const { payload } = await jwtVerify(token, createLocalJWKSet(keys), { audience: "http://localhost:3000" });
    expect(payload.email).toBe("ada@example.com");
  });
});
