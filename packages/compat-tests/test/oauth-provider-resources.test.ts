import { decodeJwt, decodeProtectedHeader } from "jose";
import { describe, expect, it } from "vitest";
import { signUp } from "./support/flows.ts";
import { answer, ada, authorize, form, ISSUER, pairPerTest, pkce, redeem, register, type Registered } from "./support/oauth-provider.ts";

/**
 * RFC 8707 resources as configured entities on `@latchkey/oauth-provider` beside the reference's
 * `oauthProvider()`, on one database: `oauthResource` / `oauthClientResource` rows written by
 * either side's admin routes or seeding are honoured by the other at authorize, token and
 * introspection.
 */
const pairWith = pairPerTest();
const API = "https://api.example.com";
const USERINFO = `${ISSUER}/oauth2/userinfo`;

type AdminApi = {
  adminCreateOAuthResource(input: { body: Record<string, unknown>; headers: Headers }): Promise<Record<string, unknown>>;
  adminLinkClientResource(input: { params: Record<string, string>; headers: Headers }): Promise<Record<string, unknown>>;
};

const POLICY = { name: "Reports", accessTokenTtl: 300, refreshTokenTtl: 900, allowedScopes: ["openid", "profile", "offline_access"], customClaims: { tier: "gold" }, dpopBoundAccessTokensRequired: false, disabled: false, metadata: { owner: "ops" } };

describe("oauth-provider: resources on both sides", () => {
  it("the admin routes of both sides write the same rows", async () => {
    const p = await pairWith();
    const { cookie } = await signUp(p.reference, ada);
    const headers = new Headers({ cookie });
    await (p.referenceApi as AdminApi).adminCreateOAuthResource({ body: { identifier: "https://ref.example.com", ...POLICY }, headers });
    await (p.latchkeyAuth.api as unknown as AdminApi).adminCreateOAuthResource({ body: { identifier: "https://lk.example.com", ...POLICY }, headers });
    const rows = p.db.prepare(`SELECT * FROM "oauthResource" ORDER BY identifier`).all([]) as Array<Record<string, unknown>>;
    const strip = ({ id: _i, identifier: _n, createdAt: _c, updatedAt: _u, ...rest }: Record<string, unknown>) => rest;
    expect(rows).toHaveLength(2);
    expect(strip(rows[0]!)).toEqual(strip(rows[1]!));
    expect(strip(rows[0]!)).toMatchObject({ name: "Reports", accessTokenTtl: 300, policyVersion: 1 });
  });

  for (const [writer, issuer] of [["reference", "latchkey"], ["latchkey", "reference"]] as const) {
    it(`a resource and link written by the ${writer} bind tokens issued by the ${issuer}; the other side introspects them for a linked resource server`, async () => {
      const p = await pairWith();
      const { cookie } = await signUp(p.reference, ada);
      const headers = new Headers({ cookie });
      const admin = (writer === "reference" ? p.referenceApi : p.latchkeyAuth.api) as AdminApi;
      const side = issuer === "reference" ? p.reference : p.latchkey;
      const other = issuer === "reference" ? p.latchkey : p.reference;
      await admin.adminCreateOAuthResource({ body: { identifier: API, ...POLICY }, headers });
      const c: Registered = await register(p.reference, cookie);
      const rs: Registered = await register(p.reference, cookie);
      // Not linked yet: refused at authorize on the issuing side (enforcePerClientResources defaults to true on both).
      const { verifier, challenge } = await pkce();
      const refused = await side(new Request(`${ISSUER}/oauth2/authorize?${new URLSearchParams({ response_type: "code", client_id: c.client_id, redirect_uri: "https://client.example.com/callback", scope: "openid", state: "s", code_challenge: challenge, code_challenge_method: "S256", resource: API })}`, { headers: { cookie } }));
      expect(new URL(refused.headers.get("location")!).searchParams.get("error")).toBe("invalid_target");
      await admin.adminLinkClientResource({ params: { identifier: API, client_id: c.client_id }, headers });
      await admin.adminLinkClientResource({ params: { identifier: API, client_id: rs.client_id }, headers });
      const code = await authorize(side, cookie, c.client_id, challenge, { resource: API, scope: "openid profile email offline_access" });
      const issued = await answer(await redeem(side, c, code, verifier));
      expect(issued.status).toBe(200);
      const tokens = issued.body as { access_token: string; scope: string; expires_in: number; refresh_token: string };
      expect(tokens.scope).toBe("openid profile offline_access");
      expect(tokens.expires_in).toBe(300);
      expect(decodeProtectedHeader(tokens.access_token).typ).toBe("at+jwt");
      expect(decodeJwt(tokens.access_token)).toMatchObject({ aud: [API, USERINFO], tier: "gold" });
      const introspected = await answer(await other(form("/oauth2/introspect", { token: tokens.access_token }, rs)));
      expect(introspected.body).toMatchObject({ active: true, client_id: c.client_id, aud: [API, USERINFO] });
      // The refresh token rotates on the other side, the resource kept.
      const refreshed = await answer(await other(form("/oauth2/token", { grant_type: "refresh_token", refresh_token: tokens.refresh_token }, c)));
      expect(refreshed.status).toBe(200);
      expect(decodeJwt((refreshed.body as { access_token: string }).access_token).aud).toEqual([API, USERINFO]);
    });
  }

  it("resources seeded from the same configuration by both sides give one row each, as the reference writes it", async () => {
    const p = await pairWith({ resources: [API, { identifier: "https://seeded.example.com", accessTokenTtl: 60 }] });
    const { cookie } = await signUp(p.reference, ada);
    // Latchkey seeds lazily (first lookup); the reference at start-up.
    await (p.latchkeyAuth.api as unknown as { adminListOAuthResources(i: { headers: Headers }): Promise<unknown[]> }).adminListOAuthResources({ headers: new Headers({ cookie }) });
    const rows = p.db.prepare(`SELECT identifier, name, accessTokenTtl, disabled, policyVersion FROM "oauthResource" ORDER BY identifier`).all([]);
    expect(rows).toEqual([
      { identifier: API, name: API, accessTokenTtl: null, disabled: 0, policyVersion: 1 },
      { identifier: "https://seeded.example.com", name: "https://seeded.example.com", accessTokenTtl: 60, disabled: 0, policyVersion: 1 },
    ]);
  });

  it("row 133: a resource identifier longer than 191 characters — the reference stores it where the column allows (a database error, 500, where it does not: MySQL), Latchkey refuses it with a validation error", async () => {
    const p = await pairWith();
    const { cookie } = await signUp(p.reference, ada);
    const headers = new Headers({ cookie });
    const identifier = `https://api.example.com/${"a".repeat(240)}`;
    const created = await (p.referenceApi as AdminApi).adminCreateOAuthResource({ body: { identifier }, headers });
    expect(created).toMatchObject({ identifier });
    const refused = await (p.latchkeyAuth.api as unknown as AdminApi).adminCreateOAuthResource({ body: { identifier: `${identifier}b` }, headers }).then(() => null, (e: unknown) => e);
    expect(refused).toMatchObject({ status: 400 });
    expect(p.db.prepare(`SELECT count(*) AS n FROM "oauthResource"`).all([])).toEqual([{ n: 1 }]);
  });
  it("row 139: a resource pinned to an algorithm the jwt plugin cannot sign with — the reference stores it and answers 500 at the token endpoint, Latchkey refuses it at the admin route (400) and at the token endpoint (400 invalid_target)", async () => {
    const p = await pairWith();
    const { cookie } = await signUp(p.reference, ada);
    const headers = new Headers({ cookie });
    const pinned = "https://es256.example.com";
    const created = await (p.referenceApi as AdminApi).adminCreateOAuthResource({ body: { identifier: pinned, signingAlgorithm: "ES256" }, headers });
    expect(created).toMatchObject({ identifier: pinned, signingAlgorithm: "ES256" });
    const refused = await (p.latchkeyAuth.api as unknown as AdminApi)
      .adminCreateOAuthResource({ body: { identifier: "https://es256-lk.example.com", signingAlgorithm: "ES256" }, headers })
      .then(() => null, (e: unknown) => e as { status: number; body: { error: string; error_description: string } });
    expect(refused?.status).toBe(400);
    expect(refused?.body.error).toBe("invalid_request");
    expect(refused?.body.error_description).toContain('no key with alg "ES256"');
    expect(p.db.prepare(`SELECT count(*) AS n FROM "oauthResource"`).all([])).toEqual([{ n: 1 }]);
    // The reference's row, used at the token endpoint of both sides.
    const c: Registered = await register(p.reference, cookie);
    await (p.referenceApi as AdminApi).adminLinkClientResource({ params: { identifier: pinned, client_id: c.client_id }, headers });
    const results = [];
    for (const side of [p.reference, p.latchkey]) {
      const { verifier, challenge } = await pkce();
      const code = await authorize(p.reference, cookie, c.client_id, challenge, { resource: pinned });
      const res = await redeem(side, c, code, verifier);
      results.push({ status: res.status, body: await res.text() });
    }
    expect(results[0]!.status).toBe(500);
    expect(results[1]).toEqual({
      status: 400,
      body: JSON.stringify({ error: "invalid_target", error_description: `requested resource ${pinned} cannot be issued a token: its signing key is unavailable` }),
    });
  });
});
