import { client, type DatabaseKind, type TestAuth } from "@latchkey/test-support";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, formPost, providerInstance } from "./instance.ts";

const KINDS: DatabaseKind[] = ["sqlite", "postgres", "mysql"];

describe.each(KINDS)("private_key_jwt assertion ids are single use on %s", (kind) => {
  let t: TestAuth;
  beforeAll(async () => {
    t = await providerInstance({ scopes: ["openid", "reports:read"] }, kind);
  });
  afterAll(() => t.close());

  it("10 parallel uses of one assertion: exactly one token", async () => {
    const { privateKey, publicKey } = await generateKeyPair("ES256");
    const registered = (await api(t).adminCreateOAuthClient({
      body: {
        token_endpoint_auth_method: "private_key_jwt",
        jwks: { keys: [{ ...(await exportJWK(publicKey)), kid: "k" }] },
        grant_types: ["client_credentials"],
        client_credentials_scopes: ["reports:read"],
      },
    })) as unknown as { client_id: string };
    const id = registered.client_id;
    const now = Math.floor(Date.now() / 1000);
    const jwt = await new SignJWT({ iss: id, sub: id, aud: `${t.auth.$context.baseURL}/oauth2/token`, jti: "one-jti", iat: now, exp: now + 60 })
      .setProtectedHeader({ alg: "ES256", kid: "k" })
      .sign(privateKey);
    const body = {
      grant_type: "client_credentials",
      client_assertion_type: "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
      client_assertion: jwt,
    };
    const c = client(t.auth);
    const answers = await Promise.all(Array.from({ length: 10 }, () => formPost(c, "/oauth2/token", body)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, ...Array<number>(9).fill(400)]);
    for (const refused of answers.filter((a) => a.status === 400)) {
      expect(refused.json).toEqual({ error: "invalid_client", error_description: "client assertion jti has already been used" });
    }
    const rows = await t.auth.$context.adapter.count({ model: "oauthClientAssertion" });
    expect(rows).toBe(1);
    const tokens = await t.auth.$context.adapter.count({ model: "oauthAccessToken", where: [{ field: "clientId", value: id }] });
    expect(tokens).toBe(1);
  });
});
