import { endpoint, getService, type LatchkeyPlugin } from "@latchkey/core";
import { client, testAuth, TEST_BASE_URL, type TestAuth } from "@latchkey/test-support";
import { createLocalJWKSet, jwtVerify } from "jose";
import * as v from "valibot";
import { afterEach, describe, expect, it } from "vitest";
import { jwt, JWT_SIGNER } from "../src/index.ts";

let open: TestAuth[] = [];
afterEach(async () => {
  await Promise.all(open.map((t) => t.close()));
  open = [];
});

/** A stand-in for oauth-provider: signs and verifies through the published service only. */
const consumer = () =>
  ({
    id: "jwt-consumer",
    requires: ["jwt"],
    endpoints: {
      mint: endpoint("/consumer/mint", { method: "POST", body: v.object({ sub: v.string() }) }, async (ctx) => {
        const signer = getService(ctx.context, JWT_SIGNER);
        const token = await signer.sign(
          { sub: ctx.body.sub, scope: "openid" },
          { audience: "client-1", expirationTime: "5m", header: { typ: "at+jwt" } },
        );
        return { token, check: await signer.verify(token, { audience: "client-1" }), keys: await signer.jwks() };
      }),
    },
  }) satisfies LatchkeyPlugin;

describe("JWT_SIGNER service", () => {
  it("another plugin signs, verifies and lists keys through it", async () => {
    const t = await testAuth({ plugins: [jwt(), consumer()] }, { db: "sqlite" });
    open.push(t);
    const res = await client(t.auth).post("/consumer/mint", { sub: "client-sub" });
    expect(res.status).toBe(200);
    const { token, check, keys } = res.json as { token: string; check: Record<string, unknown>; keys: [] };
    const served = (await client(t.auth).get("/jwks")).json as { keys: [] };
    expect(keys).toEqual(served.keys);
    const { payload, protectedHeader } = await jwtVerify(token, createLocalJWKSet({ keys }), {
      issuer: TEST_BASE_URL,
      audience: "client-1",
      typ: "at+jwt",
    });
    expect(protectedHeader.alg).toBe("EdDSA");
    expect(payload.exp! - Math.floor(Date.now() / 1000)).toBeGreaterThan(290);
    expect(check).toMatchObject({ sub: "client-sub", aud: "client-1" });
  });

  it("without jwt() the consumer is refused at createAuth", async () => {
    await expect(testAuth({ plugins: [consumer()] }, { db: "sqlite" })).rejects.toThrow(/jwt/);
  });
});
