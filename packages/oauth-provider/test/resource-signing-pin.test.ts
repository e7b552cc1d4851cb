import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { decodeProtectedHeader } from "jose";
import { APIError } from "@latchkey/core";
import { KEY_CACHE_TTL_MS } from "@latchkey/jwt";
import { rowCounts, type TestAuth, type TestClient } from "@latchkey/test-support";
import { adminClient, api, formPost, providerInstance, signedIn } from "./instance.ts";

// jwt() here makes EdDSA keys only (no `keyPairConfigs`): an ES256 pin can never be signed.
const API = "https://api.example.com";
const SEEDED_ES256 = "https://es256.example.com";
const BAD_PIN = "access tokens for this resource cannot be signed";

describe("resources pinned to a key the jwt plugin cannot sign with (DIVERGENCES.md row 139)", () => {
  let t: TestAuth;
  let browser: TestClient;
  let headers: Headers;
  const warnings: string[] = [];
  beforeAll(async () => {
    t = await providerInstance(
      { resources: [API, { identifier: SEEDED_ES256, signingAlgorithm: "ES256" }], enforcePerClientResources: false, scopes: ["openid", "profile", "email", "offline_access", "read"] },
      "sqlite",
      { logger: { level: "warn", log: (level, message) => void (level === "warn" && warnings.push(message)) } },
    );
    browser = await signedIn(t);
    headers = new Headers({ cookie: browser.jar.header() ?? "" });
    await api(t).adminListOAuthResources({ headers }); // seeded
  });
  afterAll(() => t.close());

  async function refused(call: () => Promise<unknown>): Promise<APIError> {
    const before = await rowCounts(t.auth);
    const error = await call().then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).status).toBe(400);
    expect(await rowCounts(t.auth), "nothing written").toEqual(before);
    return error as APIError;
  }

  it("seeding keeps the configured row and warns, naming the algorithm", async () => {
    const row = await api(t).adminGetOAuthResource({ params: { identifier: SEEDED_ES256 }, headers });
    expect(row).toMatchObject({ identifier: SEEDED_ES256, signingAlgorithm: "ES256" });
    expect(warnings.some((w) => w.includes(SEEDED_ES256) && w.includes('no key with alg "ES256"'))).toBe(true);
  });

  it("the admin create route refuses an unsignable algorithm or an unknown key id with 400 naming the problem", async () => {
    const byAlg = await refused(() => api(t).adminCreateOAuthResource({ body: { identifier: "https://a.example.com", signingAlgorithm: "ES256" }, headers }));
    expect(byAlg.body).toMatchObject({ error: "invalid_request" });
    expect(String((byAlg.body as { error_description: string }).error_description)).toContain(`${BAD_PIN}: no key with alg "ES256"`);
    const byKid = await refused(() => api(t).adminCreateOAuthResource({ body: { identifier: "https://b.example.com", signingKeyId: "no-such-kid" }, headers }));
    expect(String((byKid.body as { error_description: string }).error_description)).toContain(`${BAD_PIN}: signingKeyId "no-such-kid" is not in the key set`);
  });

  it("the admin update route refuses such a pin and leaves the row as it was", async () => {
    await refused(() => api(t).adminUpdateOAuthResource({ params: { identifier: API }, body: { signingAlgorithm: "PS256" }, headers }));
    expect(await api(t).adminGetOAuthResource({ params: { identifier: API }, headers })).toMatchObject({ signingAlgorithm: null });
  });

  it("the token endpoint answers 400 invalid_target for a resource it cannot sign for (the reference: 500), and issues nothing", async () => {
    const c = await adminClient(t, { grant_types: ["client_credentials"], client_credentials_scopes: ["read"] });
    const basic = { id: c.client_id, secret: c.client_secret! };
    const before = await rowCounts(t.auth);
    const res = await formPost(browser, "/oauth2/token", { grant_type: "client_credentials", resource: SEEDED_ES256 }, basic);
    expect(res.status).toBe(400);
    expect(res.json).toEqual({
      error: "invalid_target",
      error_description: `requested resource ${SEEDED_ES256} cannot be issued a token: its signing key is unavailable`,
    });
    expect(await rowCounts(t.auth)).toEqual(before);
    // The unpinned resource is served as before.
    const ok = await formPost(browser, "/oauth2/token", { grant_type: "client_credentials", resource: API }, basic);
    expect(ok.status).toBe(200);
  });

  it("a key pinned by id that is gone by token time: 400 invalid_target, not a 500", async () => {
    const keys = ((await browser.get("/jwks")).json as { keys: Array<{ kid: string }> }).keys;
    const kid = keys[0]!.kid;
    const pinned = "https://kid.example.com";
    await api(t).adminCreateOAuthResource({ body: { identifier: pinned, signingKeyId: kid }, headers });
    const c = await adminClient(t, { grant_types: ["client_credentials"], client_credentials_scopes: ["read"] });
    const basic = { id: c.client_id, secret: c.client_secret! };
    const first = await formPost(browser, "/oauth2/token", { grant_type: "client_credentials", resource: pinned }, basic);
    expect(first.status).toBe(200);
    expect(decodeProtectedHeader((first.json as { access_token: string }).access_token).kid).toBe(kid);
    await t.auth.$context.adapter.update({ model: "jwks", where: [{ field: "id", value: kid }], update: { expiresAt: new Date(Date.now() - 1000) } });
    // jwt holds the key rows in memory for KEY_CACHE_TTL_MS (DIVERGENCES.md row 137): a change
    // made in the table is seen once that copy has aged out.
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(Date.now() + KEY_CACHE_TTL_MS + 1000);
      const after = await formPost(browser, "/oauth2/token", { grant_type: "client_credentials", resource: pinned }, basic);
      expect(after.status).toBe(400);
      expect((after.json as { error: string }).error).toBe("invalid_target");
    } finally {
      vi.useRealTimers();
    }
  });
});
