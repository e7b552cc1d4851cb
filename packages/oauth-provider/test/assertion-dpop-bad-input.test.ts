import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { api, formPost, providerInstance, signedIn } from "./instance.ts";

const ASSERTION_TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";
const unsigned = (header: object, payload: object) =>
  `${Buffer.from(JSON.stringify(header)).toString("base64url")}.${Buffer.from(JSON.stringify(payload)).toString("base64url")}.`;

describe("hostile client assertions and DPoP headers: 4xx OAuth errors, nothing written, never 500", () => {
  it("token, introspect and revoke", async () => {
    const t = await providerInstance({ scopes: ["openid", "reports:read"] });
    try {
      const browser = await signedIn(t);
      const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
      const c = (await api(t).adminCreateOAuthClient({
        body: {
          token_endpoint_auth_method: "private_key_jwt",
          jwks: { keys: [{ ...(await exportJWK(publicKey)), kid: "k" }] },
          grant_types: ["client_credentials"],
          client_credentials_scopes: ["reports:read"],
        },
      })) as unknown as { client_id: string };
      const id = c.client_id;
      const now = Math.floor(Date.now() / 1000);
      const hmac = await new SignJWT({ iss: id, sub: id, aud: t.auth.$context.baseURL, jti: "h", exp: now + 60 })
        .setProtectedHeader({ alg: "HS256" })
        .sign(new TextEncoder().encode("k".repeat(32)));
      const assertions = [
        "",
        "x",
        "a.b.c",
        "\u0000.\u0001.\u0002",
        "x".repeat(20000),
        unsigned({ alg: "none" }, { iss: id, sub: id }),
        unsigned({ alg: "ES256" }, { iss: ["array"], sub: { object: true } }),
        unsigned({ alg: "ES256", kid: "k" }, { iss: id, sub: id, aud: t.auth.$context.baseURL, exp: now + 60, jti: "j" }),
        unsigned({ alg: "ES256" }, { iss: "__proto__", sub: "__proto__" }),
        hmac,
      ];
      const validProof = await new SignJWT({ htm: "POST", htu: `${t.auth.$context.baseURL}/oauth2/token`, jti: "p", iat: now })
        .setProtectedHeader({ alg: "ES256", typ: "dpop+jwt", jwk: await exportJWK(publicKey) })
        .sign(privateKey);
      const proofs = [
        "",
        "x",
        "a.b.c",
        `${validProof}, ${validProof}`,
        unsigned({ alg: "none", typ: "dpop+jwt" }, { htm: "POST" }),
        unsigned({ alg: "ES256", typ: "dpop+jwt", jwk: { kty: "oct", k: "AA" } }, { htm: "POST" }),
        unsigned({ alg: "ES256", typ: "dpop+jwt", jwk: { ...(await exportJWK(privateKey)) } }, { htm: "POST" }),
        unsigned({ alg: "HS256", typ: "dpop+jwt", jwk: "string" }, {}),
        "x".repeat(20000),
      ];
      const before = await t.auth.$context.adapter.count({ model: "oauthAccessToken" });
      for (const assertion of assertions) {
        for (const path of ["/oauth2/token", "/oauth2/introspect", "/oauth2/revoke"]) {
          const res = await formPost(browser, path, { grant_type: "client_credentials", token: "t", client_assertion_type: ASSERTION_TYPE, client_assertion: assertion });
          expect(res.status, `${path} ${assertion.slice(0, 40)}`).toBeGreaterThanOrEqual(400);
          expect(res.status).toBeLessThan(500);
          expect(typeof (res.json as { error?: unknown }).error).toBe("string");
        }
      }
      for (const proof of proofs) {
        const res = await browser.request("/oauth2/token", {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", dpop: proof },
          body: new URLSearchParams({ grant_type: "client_credentials", client_assertion_type: ASSERTION_TYPE, client_assertion: await new SignJWT({ iss: id, sub: id, aud: t.auth.$context.baseURL, jti: crypto.randomUUID(), exp: now + 60 }).setProtectedHeader({ alg: "ES256", kid: "k" }).sign(privateKey) }).toString(),
        });
        // An empty header is no proof (the client registered no binding): a Bearer token is issued.
        if (proof === "") {
          expect(res.status).toBe(200);
          continue;
        }
        expect(res.status, proof.slice(0, 40)).toBe(400);
        expect((res.json as { error: string }).error).toBe("invalid_dpop_proof");
      }
      expect(await t.auth.$context.adapter.count({ model: "oauthAccessToken" })).toBe(before + 1);
      expect(await t.auth.$context.adapter.count({ model: "oauthClientAssertion" })).toBe(proofs.length);
    } finally {
      await t.close();
    }
  });
});
