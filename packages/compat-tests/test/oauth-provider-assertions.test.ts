import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from "jose";
import { describe, expect, it } from "vitest";
import { signUp } from "./support/flows.ts";
import { answer, ada, form, ISSUER, pairPerTest, register } from "./support/oauth-provider.ts";

/**
 * `private_key_jwt` (RFC 7523) and DPoP (RFC 9449) on `@latchkey/oauth-provider` beside the
 * reference's `oauthProvider()`, on one database: clients registered on one authenticate on the
 * other, and the deliberate differences (DIVERGENCES.md rows 134-141) are asserted on both sides.
 */
const pairWith = pairPerTest();
const ASSERTION_TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";

async function assertion(key: CryptoKey, clientId: string, aud: string, alg: string): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ iss: clientId, sub: clientId, aud, jti: crypto.randomUUID(), iat: now, exp: now + 60 })
    .setProtectedHeader({ alg, kid: "k" })
    .sign(key);
}

describe("oauth-provider: private_key_jwt on both sides", () => {
  it("a private_key_jwt client registered on the reference authenticates on Latchkey (and back) at introspection", async () => {
    const p = await pairWith();
    const { cookie } = await signUp(p.reference, ada);
    const { privateKey, publicKey } = await generateKeyPair("ES256");
    const c = await register(p.reference, cookie, { token_endpoint_auth_method: "private_key_jwt", jwks: { keys: [{ ...(await exportJWK(publicKey)), kid: "k" }] } });
    expect(c.client_secret).toBeUndefined();
    for (const side of [p.reference, p.latchkey]) {
      const res = await answer(
        await side(form("/oauth2/introspect", { token: "unknown", client_assertion_type: ASSERTION_TYPE, client_assertion: await assertion(privateKey, c.client_id, ISSUER, "ES256") })),
      );
      expect(res).toMatchObject({ status: 200, body: { active: false } });
    }
    // One assertion id, spent on the reference, is refused by Latchkey (shared oauthClientAssertion table).
    const once = await assertion(privateKey, c.client_id, `${ISSUER}/oauth2/introspect`, "ES256");
    const fields = { token: "unknown", client_assertion_type: ASSERTION_TYPE, client_assertion: once };
    expect((await p.reference(form("/oauth2/introspect", fields))).status).toBe(200);
    expect(await answer(await p.latchkey(form("/oauth2/introspect", fields)))).toMatchObject({
      status: 400,
      body: { error: "invalid_client", error_description: "client assertion jti has already been used" },
    });
  });

  it("row 134: an assertion signed with alg Ed25519 (RFC 9864, what openid-client sends for an Ed25519 key) — the reference refuses it, Latchkey verifies it", async () => {
    const p = await pairWith();
    const { cookie } = await signUp(p.reference, ada);
    const { privateKey, publicKey } = await generateKeyPair("Ed25519");
    const c = await register(p.reference, cookie, { token_endpoint_auth_method: "private_key_jwt", jwks: { keys: [{ ...(await exportJWK(publicKey)), kid: "k" }] } });
    const results = [];
    for (const side of [p.reference, p.latchkey]) {
      results.push(
        await answer(
          await side(form("/oauth2/introspect", { token: "unknown", client_assertion_type: ASSERTION_TYPE, client_assertion: await assertion(privateKey, c.client_id, ISSUER, "Ed25519") })),
        ),
      );
    }
    expect(results[0]).toMatchObject({ status: 400, body: { error: "invalid_client", error_description: "unsupported assertion signing algorithm: Ed25519" } });
    expect(results[1]).toMatchObject({ status: 200, body: { active: false } });
    // The same key with alg EdDSA works on both.
    for (const side of [p.reference, p.latchkey]) {
      const res = await answer(
        await side(form("/oauth2/introspect", { token: "unknown", client_assertion_type: ASSERTION_TYPE, client_assertion: await assertion(privateKey, c.client_id, ISSUER, "EdDSA") })),
      );
      expect(res).toMatchObject({ status: 200, body: { active: false } });
    }
  });
});
