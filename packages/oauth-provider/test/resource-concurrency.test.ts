import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseKind, TestAuth, TestClient } from "@latchkey/test-support";
import { getService } from "@latchkey/core";
import { JWT_SIGNER } from "@latchkey/jwt";
import { oauthProvider } from "../src/index.ts";
import { adminClient, api, baseOptions, providerInstance, signedIn } from "./instance.ts";

const KINDS: DatabaseKind[] = ["sqlite", "postgres", "mysql"];
const API = "https://api.example.com";

describe.each(KINDS)("resource writes under concurrency on %s", (kind) => {
  let t: TestAuth;
  let browser: TestClient;
  let headers: Headers;
  beforeAll(async () => {
    t = await providerInstance({ resources: [API] }, kind);
    browser = await signedIn(t);
    headers = new Headers({ cookie: browser.jar.header() ?? "" });
  });
  afterAll(() => t.close());

  const count = async (model: string, field: string, value: string) =>
    (await t.auth.$context).adapter.count({ model, where: [{ field, value }] });

  it("20 parallel links of one pair: one row, one `linked`, the rest `alreadyLinked`", async () => {
    const c = await adminClient(t);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => api(t).adminLinkClientResource({ params: { identifier: API, client_id: c.client_id }, headers })),
    );
    expect(answers.filter((answer) => !("alreadyLinked" in (answer as object)))).toEqual([{ linked: true }]);
    expect(answers.filter((answer) => "alreadyLinked" in (answer as object))).toHaveLength(19);
    expect(await count("oauthClientResource", "clientId", c.client_id)).toBe(1);
  });

  it("10 parallel creations of one identifier: one 201 row, the rest 400 invalid_request", async () => {
    const identifier = `https://race-${kind}.example.com`;
    const settled = await Promise.allSettled(
      Array.from({ length: 10 }, () => api(t).adminCreateOAuthResource({ body: { identifier }, headers })),
    );
    expect(settled.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    for (const result of settled.filter((r): r is PromiseRejectedResult => r.status === "rejected")) {
      expect(result.reason).toMatchObject({ status: 400, body: { error: "invalid_request", error_description: `resource ${identifier} already exists` } });
    }
    expect(await count("oauthResource", "identifier", identifier)).toBe(1);
  });

  it("policy columns round-trip (json, string[], booleans, numbers) through the admin routes", async () => {
    const identifier = `https://columns-${kind}.example.com`;
    // A pin must name a key the jwt plugin can sign with (row 139): the instance's first EdDSA key.
    const kid = (await getService(t.auth.$context, JWT_SIGNER).jwks())[0]!.kid;
    const policy = { name: "Columns", accessTokenTtl: 300, refreshTokenTtl: 900, signingAlgorithm: "EdDSA" as const, signingKeyId: kid, allowedScopes: ["openid", "read"], customClaims: { tier: "gold", n: 2, nested: { a: [1] } }, dpopBoundAccessTokensRequired: true, disabled: false, metadata: { owner: "ops" } };
    const created = await api(t).adminCreateOAuthResource({ body: { identifier, ...policy }, headers });
    expect(created).toMatchObject({ identifier, ...policy, policyVersion: 1 });
    expect(await api(t).adminGetOAuthResource({ params: { identifier }, headers })).toMatchObject({ identifier, ...policy });
    const updated = await api(t).adminUpdateOAuthResource({ params: { identifier }, body: { allowedScopes: null, customClaims: null, disabled: true }, headers });
    expect(updated).toMatchObject({ identifier, allowedScopes: null, customClaims: null, disabled: true, accessTokenTtl: 300 });
  });

  it("5 instances seeding one database at once: one row per configured resource", async () => {
    const identifier = `https://seed-${kind}.example.com`;
    const ctx = await t.auth.$context;
    const seeds = Array.from({ length: 5 }, () => oauthProvider({ ...baseOptions, resources: [identifier, API] }).options.resourceStore);
    await Promise.all(seeds.map((store) => store.seed(ctx)));
    expect(await count("oauthResource", "identifier", identifier)).toBe(1);
    expect(await count("oauthResource", "identifier", API)).toBe(1);
  });
});
