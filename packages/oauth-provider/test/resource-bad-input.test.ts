import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { APIError } from "@latchkey/core";
import { rowCounts, type TestAuth } from "@latchkey/test-support";
import { adminClient, api, formPost, providerInstance, REDIRECT, signedIn } from "./instance.ts";

const API = "https://api.example.com";
const HUGE = "x".repeat(100_000);

/** Bodies the admin resource routes must refuse with a 4xx (the create route's; update takes the same members). */
const BAD_BODIES: Array<[string, unknown]> = [
  ["no body", undefined],
  ["null", null],
  ["an array", [API]],
  ["a string", "identifier"],
  ["identifier missing", { name: "x" }],
  ["identifier empty", { identifier: "" }],
  ["identifier a number", { identifier: 7 }],
  ["identifier an object", { identifier: { $ne: null } }],
  ["identifier not a URI", { identifier: "not a uri" }],
  ["identifier with a fragment", { identifier: `${API}/#frag` }],
  ["identifier oversized", { identifier: `https://a.example/${HUGE}` }],
  ["accessTokenTtl negative", { identifier: API, accessTokenTtl: -1 }],
  ["accessTokenTtl fractional", { identifier: API, accessTokenTtl: 1.5 }],
  ["accessTokenTtl a string", { identifier: API, accessTokenTtl: "60" }],
  ["refreshTokenTtl zero", { identifier: API, refreshTokenTtl: 0 }],
  ["signingAlgorithm HS256", { identifier: API, signingAlgorithm: "HS256" }],
  ["signingAlgorithm none", { identifier: API, signingAlgorithm: "none" }],
  ["allowedScopes a string", { identifier: API, allowedScopes: "openid" }],
  ["allowedScopes with a number", { identifier: API, allowedScopes: ["openid", 1] }],
  ["customClaims an array", { identifier: API, customClaims: ["a"] }],
  ["disabled a string", { identifier: API, disabled: "true" }],
  ["dpopBoundAccessTokensRequired a number", { identifier: API, dpopBoundAccessTokensRequired: 1 }],
  ["metadata a string", { identifier: API, metadata: "{}" }],
  ["name a number", { identifier: API, name: 5 }],
];

describe("bad input to the admin resource routes (server-only: through auth.api)", () => {
  let t: TestAuth;
  let headers: Headers;
  let clientId: string;
  beforeAll(async () => {
    t = await providerInstance({ resources: ["https://existing.example.com"] });
    const browser = await signedIn(t);
    headers = new Headers({ cookie: browser.jar.header() ?? "" });
    clientId = (await adminClient(t)).client_id;
    await api(t).adminListOAuthResources({ headers }); // seeded before the counts are taken
  });
  afterAll(() => t.close());

  /** The call is refused with a 4xx APIError (never a 500 or another error) and writes nothing. */
  async function refused(call: () => Promise<unknown>, status?: number): Promise<APIError> {
    const before = await rowCounts(t.auth);
    const error = await call().then(() => null, (e: unknown) => e);
    expect(error, "refused with an APIError").toBeInstanceOf(APIError);
    const { status: got } = error as APIError;
    expect(got).toBeGreaterThanOrEqual(400);
    expect(got).toBeLessThan(500);
    if (status) expect(got).toBe(status);
    expect(JSON.stringify((error as APIError).body ?? {}).includes(HUGE)).toBe(false);
    expect(await rowCounts(t.auth), "no row written").toEqual(before);
    return error as APIError;
  }

  for (const [name, body] of BAD_BODIES) {
    it(`create: ${name}`, async () => {
      await refused(() => api(t).adminCreateOAuthResource({ body: body as never, headers }));
    });
    if (body && typeof body === "object" && !Array.isArray(body) && "identifier" in body && (body as { identifier: unknown }).identifier === API) {
      it(`update: ${name}`, async () => {
        const { identifier: _omit, ...update } = body as Record<string, unknown>;
        await refused(() => api(t).adminUpdateOAuthResource({ params: { identifier: "https://existing.example.com" }, body: update as never, headers }));
      });
    }
  }

  it("bad path parameters answer 404 not_found, malformed percent-encoding included", async () => {
    for (const identifier of ["%E0%A4%A", "https%3A%2F%2Fnowhere.example.com", HUGE]) {
      const error = await refused(() => api(t).adminGetOAuthResource({ params: { identifier }, headers }), 404);
      expect((error.body as { error: string }).error).toBe("not_found");
      await refused(() => api(t).adminDeleteOAuthResource({ params: { identifier }, headers }), 404);
      await refused(() => api(t).adminUpdateOAuthResource({ params: { identifier }, body: { name: "x" }, headers }), 404);
      await refused(() => api(t).adminLinkClientResource({ params: { identifier, client_id: clientId }, headers }), 404);
    }
    await refused(() => api(t).adminLinkClientResource({ params: { identifier: "https://existing.example.com", client_id: "nobody" }, headers }), 404);
  });

  it("a path identifier given percent-encoded (as over HTTP) names the same row", async () => {
    const row = await api(t).adminGetOAuthResource({ params: { identifier: encodeURIComponent("https://existing.example.com") }, headers });
    expect(row).toMatchObject({ identifier: "https://existing.example.com" });
  });

  it("without a session every route is a bare 401", async () => {
    const none = new Headers();
    await refused(() => api(t).adminCreateOAuthResource({ body: { identifier: "https://x.example.com" }, headers: none }), 401);
    await refused(() => api(t).adminListOAuthResources({ headers: none }), 401);
    await refused(() => api(t).adminGetOAuthResource({ params: { identifier: "https://existing.example.com" }, headers: none }), 401);
    await refused(() => api(t).adminLinkClientResource({ params: { identifier: "https://existing.example.com", client_id: clientId }, headers: none }), 401);
    await refused(() => api(t).adminUnlinkClientResource({ params: { identifier: "https://existing.example.com", client_id: clientId }, headers: none }), 401);
  });

  it("the routes are not served over HTTP (server-only)", async () => {
    const { client } = await import("@latchkey/test-support");
    const c = client(t.auth);
    expect((await c.post("/admin/oauth2/resources", { identifier: "https://x.example.com" })).status).toBe(404);
    expect((await c.get("/admin/oauth2/resources")).status).toBe(404);
  });

  it("the token endpoint refuses resource values that are no configured resource without writing", async () => {
    const c = await adminClient(t, { client_credentials_scopes: [], grant_types: ["authorization_code", "client_credentials"] });
    const { client } = await import("@latchkey/test-support");
    const browser = client(t.auth);
    const before = await rowCounts(t.auth);
    for (const resource of ["https://nowhere.example.com", `https://a.example/${HUGE.slice(0, 5000)}`]) {
      const res = await formPost(browser, "/oauth2/token", { grant_type: "authorization_code", code: "x", code_verifier: "v".repeat(43), redirect_uri: REDIRECT, resource }, { id: c.client_id, secret: c.client_secret! });
      expect(res.status).toBe(400);
      expect(res.text.includes(HUGE.slice(0, 5000))).toBe(false);
    }
    expect(await rowCounts(t.auth)).toEqual(before);
  });
});
