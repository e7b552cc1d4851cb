import { client } from "@latchkey/test-support";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { oauthProvider, type OAuthOptions } from "../src/index.ts";
import { adminClient, api, formPost, providerInstance } from "./instance.ts";

const base: OAuthOptions = { loginPage: "/login", consentPage: "/consent" };

describe("assertionMaxLifetime, privateHostAllowList and dpop options", () => {
  it("resolve with the reference's defaults; misconfiguration is a TypeError", () => {
    expect(oauthProvider(base).options.assertionMaxLifetime).toBe(300);
    expect(() => oauthProvider({ ...base, assertionMaxLifetime: -1 })).toThrow(TypeError);
    expect(() => oauthProvider({ ...base, dpop: { signingAlgorithms: ["HS256"] } })).toThrow("dpop.signingAlgorithms must list asymmetric JWS algorithms");
    expect(() => oauthProvider({ ...base, dpop: { signingAlgorithms: [] } })).toThrow(TypeError);
  });

  it("dpop.signingAlgorithms is advertised and enforced; dpop.proofMaxAgeSeconds and assertionMaxLifetime bound proofs and assertions", async () => {
    const t = await providerInstance({ scopes: ["openid", "r"], dpop: { signingAlgorithms: ["ES256"], proofMaxAgeSeconds: 30 }, assertionMaxLifetime: 30 });
    try {
      const metadata = (await api(t).getOAuthServerConfig({})) as unknown as Record<string, unknown>;
      expect(metadata.dpop_signing_alg_values_supported).toEqual(["ES256"]);
      const c = await adminClient(t, { grant_types: ["client_credentials"], client_credentials_scopes: ["r"] });
      const basic = { id: c.client_id, secret: c.client_secret! };
      const browser = client(t.auth);
      const now = Math.floor(Date.now() / 1000);
      const proof = async (alg: "ES256" | "ES384", iat: number) => {
        const { privateKey, publicKey } = await generateKeyPair(alg);
        return new SignJWT({ htm: "POST", htu: `${t.auth.$context.baseURL}/oauth2/token`, jti: crypto.randomUUID(), iat })
          .setProtectedHeader({ alg, typ: "dpop+jwt", jwk: await exportJWK(publicKey) })
          .sign(privateKey);
      };
      const send = (dpop: string) =>
        browser.request("/oauth2/token", {
          method: "POST",
          headers: {
            "content-type": "application/x-www-form-urlencoded",
            authorization: `Basic ${Buffer.from(`${basic.id}:${basic.secret}`).toString("base64")}`,
            dpop,
          },
          body: "grant_type=client_credentials",
        });
      expect((await send(await proof("ES384", now))).json).toEqual({ error: "invalid_dpop_proof", error_description: "DPoP proof uses an unsupported JWS algorithm" });
      expect((await send(await proof("ES256", now - 60))).json).toEqual({ error: "invalid_dpop_proof", error_description: "DPoP proof iat is outside the accepted window" });
      expect((await send(await proof("ES256", now))).status).toBe(200);

      const { privateKey, publicKey } = await generateKeyPair("ES256");
      const pk = (await api(t).adminCreateOAuthClient({
        body: { token_endpoint_auth_method: "private_key_jwt", jwks: { keys: [await exportJWK(publicKey)] }, grant_types: ["client_credentials"], client_credentials_scopes: ["r"] },
      })) as unknown as { client_id: string };
      const assertion = await new SignJWT({ iss: pk.client_id, sub: pk.client_id, aud: t.auth.$context.baseURL, jti: "j", exp: now + 60 })
        .setProtectedHeader({ alg: "ES256" })
        .sign(privateKey);
      const res = await formPost(browser, "/oauth2/token", { grant_type: "client_credentials", client_assertion_type: "urn:ietf:params:oauth:client-assertion-type:jwt-bearer", client_assertion: assertion });
      expect(res.json).toEqual({ error: "invalid_client", error_description: "client assertion exp is too far in the future (max 30s)" });
    } finally {
      await t.close();
    }
  });
});
