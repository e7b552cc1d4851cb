import { oauthProvider as referenceOAuthProvider } from "@better-auth/oauth-provider";
import { jwt as referenceJwt } from "better-auth/plugins";
import { jwt } from "@latchkey/jwt";
import { oauthProvider } from "@latchkey/oauth-provider";
import { describe, expect, it } from "vitest";
import { signUp } from "./support/flows.ts";
import { decodeProtectedHeader, jwtVerify } from "jose";
import { ada, authorize, form, ISSUER, OPTIONS, pairPerTest, pkce, redeem, register, REDIRECT } from "./support/oauth-provider.ts";
import { createPair, jsonPost, url, type Pair } from "./support/instances.ts";

/**
 * Options and routes of `@latchkey/oauth-provider` beside the reference's (1.7.5) on one SQLite
 * file: what each writes is compared column for column, and answers member for member.
 */
const pairWith = pairPerTest();
const SCOPES = ["openid", "profile", "email", "offline_access", "reports:read"];

type AdminApi = { adminUpdateOAuthClient(input: { body: unknown; headers: Headers }): Promise<Record<string, unknown>> };
const apis = (p: Pair) => ({ reference: p.referenceApi as AdminApi, latchkey: p.latchkeyAuth.api as unknown as AdminApi });

/** A client row without what differs by construction (ids, secrets, times). */
function comparable(row: Record<string, unknown>): Record<string, unknown> {
  const { id: _id, clientId: _c, clientSecret: _s, createdAt: _a, updatedAt: _u, ...rest } = row;
  return rest;
}

describe("oauth-provider: PATCH /admin/oauth2/update-client beside the reference", () => {
  it("the same update writes the same columns and answers the same members on both sides", async () => {
    const p = await pairWith({ scopes: SCOPES, clientPrivileges: () => true });
    const { cookie } = await signUp(p.reference, ada);
    const headers = new Headers({ cookie });
    const update = {
      client_name: "Renamed",
      skip_consent: true,
      enable_end_session: true,
      dpop_bound_access_tokens: true,
      client_credentials_scopes: ["reports:read"],
      metadata: { tier: "gold", client_name: "forged" },
      token_endpoint_auth_method: "none",
    };
    const answers: Record<string, Record<string, unknown>> = {};
    const rows: Record<string, Record<string, unknown>> = {};
    for (const side of ["reference", "latchkey"] as const) {
      const c = await register(p.reference, cookie, { grant_types: ["authorization_code", "client_credentials", "refresh_token"], redirect_uris: [REDIRECT] });
      const got = await apis(p)[side].adminUpdateOAuthClient({ body: { client_id: c.client_id, update }, headers });
      const { client_id: _i, client_id_issued_at: _t, ...rest } = JSON.parse(JSON.stringify(got)) as Record<string, unknown>;
      answers[side] = rest;
      rows[side] = comparable(p.db.prepare(`select * from oauthClient where clientId = ?`).all([c.client_id])[0] as Record<string, unknown>);
    }
    expect(answers.latchkey).toEqual(answers.reference);
    expect(rows.latchkey).toEqual(rows.reference);
    expect(rows.reference).toMatchObject({ skipConsent: 1, enableEndSession: 1, name: "Renamed" });
  });

  it("refusals match: no session, another owner's settings, client_credentials scopes without the privilege", async () => {
    const p = await pairWith({ scopes: SCOPES });
    const { cookie } = await signUp(p.reference, ada);
    const { cookie: otherCookie } = await signUp(p.reference, { ...ada, email: "other@example.com" });
    const c = await register(p.reference, cookie, { grant_types: ["authorization_code", "client_credentials"] });
    const status = async (api: AdminApi, body: unknown, h: Headers) => {
      try {
        await api.adminUpdateOAuthClient({ body, headers: h });
        return 200;
      } catch (error) {
        const e = error as { status?: unknown; statusCode?: unknown };
        return typeof e.statusCode === "number" ? e.statusCode : e.status;
      }
    };
    const cases: Array<[unknown, Headers]> = [
      [{ client_id: c.client_id, update: { skip_consent: true } }, new Headers()],
      [{ client_id: c.client_id, update: { skip_consent: true } }, new Headers({ cookie: otherCookie })],
      [{ client_id: c.client_id, update: { client_credentials_scopes: ["reports:read"] } }, new Headers({ cookie })],
      [{ client_id: "nope", update: { skip_consent: true } }, new Headers({ cookie })],
    ];
    for (const [body, h] of cases) {
      const reference = await status(apis(p).reference, body, h);
      const latchkey = await status(apis(p).latchkey, body, h);
      expect([latchkey, JSON.stringify(body)]).toEqual([reference === "UNAUTHORIZED" ? 401 : reference === "NOT_FOUND" ? 404 : reference, JSON.stringify(body)]);
    }
  });
});

describe("oauth-provider: disableJwtPlugin and encrypted client secrets beside the reference", () => {
  for (const [registrar, redeemer] of [
    ["reference", "latchkey"],
    ["latchkey", "reference"],
  ] as const) {
    it(`a secret the ${registrar} encrypted authenticates on the ${redeemer}, which signs the ID token HS256 with it`, async () => {
      const p = await pairWith({ disableJwtPlugin: true });
      const { cookie } = await signUp(p.reference, ada);
      const c = await register(p[registrar], cookie);
      const stored = (p.db.prepare(`select clientSecret from oauthClient where clientId = ?`).all([c.client_id])[0] as { clientSecret: string }).clientSecret;
      expect(stored).toMatch(/^[0-9a-f]+$/);
      const { verifier, challenge } = await pkce();
      const code = await authorize(p[redeemer], cookie, c.client_id, challenge, { nonce: "n-1" });
      const res = await redeem(p[redeemer], c, code, verifier);
      expect(res.status).toBe(200);
      const tokens = (await res.json()) as Record<string, string>;
      expect(decodeProtectedHeader(tokens.id_token!)).toEqual({ alg: "HS256" });
      const { payload } = await jwtVerify(tokens.id_token!, new TextEncoder().encode(c.client_secret), { issuer: ISSUER, audience: c.client_id });
      expect(payload.nonce).toBe("n-1");
      expect(tokens.access_token!.split(".")).toHaveLength(1);
      // The opaque access token is introspected by the other side.
      const introspect = await p[registrar](
        new Request(url("/oauth2/introspect"), {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${Buffer.from(`${c.client_id}:${c.client_secret}`).toString("base64")}` },
          body: new URLSearchParams({ token: tokens.access_token! }).toString(),
        }),
      );
      expect(((await introspect.json()) as { active: boolean }).active).toBe(true);
    });
  }

  it("discovery documents match member for member", async () => {
    const p = await pairWith({ disableJwtPlugin: true });
    const doc = async (side: "reference" | "latchkey") => (await p[side](new Request(url("/.well-known/openid-configuration")))).json();
    const reference = (await doc("reference")) as Record<string, unknown>;
    expect(reference).not.toHaveProperty("jwks_uri");
    expect(await doc("latchkey")).toEqual(reference);
  });
});

describe("oauth-provider: scopeExpirations and formatRefreshToken beside the reference", () => {
  const wrap = {
    encrypt: (token: string, sessionId?: string) => `w.${Buffer.from(JSON.stringify({ token, sessionId })).toString("base64url")}`,
    decrypt: (value: string) => JSON.parse(Buffer.from(value.slice(2), "base64url").toString()) as { token: string; sessionId?: string },
  };
  for (const [issuer, refresher] of [
    ["reference", "latchkey"],
    ["latchkey", "reference"],
  ] as const) {
    it(`a formatted refresh token the ${issuer} issued refreshes on the ${refresher}; scope lifetimes agree`, async () => {
      const p = await pairWith({ scopeExpirations: { email: "5m" }, formatRefreshToken: wrap, prefix: { refreshToken: "rt_" } });
      const { cookie } = await signUp(p.reference, ada);
      const c = await register(p.reference, cookie);
      const { verifier, challenge } = await pkce();
      const code = await authorize(p[issuer], cookie, c.client_id, challenge);
      const first = (await (await redeem(p[issuer], c, code, verifier)).json()) as { refresh_token: string; expires_in: number };
      expect(first.expires_in).toBe(300);
      expect(first.refresh_token.startsWith("rt_w.")).toBe(true);
      expect(wrap.decrypt(first.refresh_token.slice(3)).sessionId).toEqual(expect.any(String));
      const res = await p[refresher](form("/oauth2/token", { grant_type: "refresh_token", refresh_token: first.refresh_token, scope: "openid profile offline_access" }, c));
      expect(res.status, await res.clone().text()).toBe(200);
      const next = (await res.json()) as { refresh_token: string; expires_in: number };
      expect(next.expires_in).toBe(3600);
      expect(next.refresh_token.startsWith("rt_w.")).toBe(true);
    });
  }
});

describe("oauth-provider: clientReference beside the reference", () => {
  it("a team's client created on either side is stored alike and managed by the team on the other", async () => {
    const team = ({ user }: { user?: { email?: unknown } }) => `team:${String(user?.email).split("@")[1]}`;
    const p = await pairWith({ clientReference: team });
    const { cookie } = await signUp(p.reference, ada);
    const { cookie: bob } = await signUp(p.reference, { ...ada, email: "bob@example.com" });
    const { cookie: eve } = await signUp(p.reference, { ...ada, email: "eve@elsewhere.org" });
    const rows: Record<string, Record<string, unknown>> = {};
    for (const [creator, manager] of [["reference", "latchkey"], ["latchkey", "reference"]] as const) {
      const res = await p[creator](jsonPost("/oauth2/create-client", { redirect_uris: [REDIRECT], client_name: "Team app" }, { cookie }));
      expect(res.status).toBe(201);
      const created = (await res.json()) as { client_id: string; reference_id?: string; user_id?: string };
      expect([created.reference_id, created.user_id]).toEqual(["team:example.com", undefined]);
      rows[creator] = comparable(p.db.prepare(`select * from oauthClient where clientId = ?`).all([created.client_id])[0] as Record<string, unknown>);
      const got = await p[manager](new Request(url(`/oauth2/get-client?client_id=${created.client_id}`), { headers: { cookie: bob } }));
      expect(got.status).toBe(200);
      const foreign = await p[manager](new Request(url(`/oauth2/get-client?client_id=${created.client_id}`), { headers: { cookie: eve } }));
      expect(foreign.status).toBe(401);
    }
    expect(rows.latchkey).toEqual(rows.reference);
    const listed = async (side: "reference" | "latchkey") =>
      ((await (await p[side](new Request(url("/oauth2/get-clients"), { headers: { cookie: bob } }))).json()) as Array<{ client_id: string }>).map((c) => c.client_id).sort();
    expect(await listed("latchkey")).toEqual(await listed("reference"));
    expect(await listed("latchkey")).toHaveLength(2);
  });
});

describe("oauth-provider: adminCreateOAuthClient with clientReference beside the reference", () => {
  type CreateApi = { adminCreateOAuthClient(input: { body: unknown; headers?: Headers }): Promise<Record<string, unknown>> };
  it("with a session both store the team's reference_id and no user_id, alike; row 140: without one the reference answers 401, Latchkey makes an unowned operator client", async () => {
    const team = ({ user }: { user?: { email?: unknown } }) => `team:${String(user?.email).split("@")[1]}`;
    const p = await pairWith({ clientReference: team });
    const { cookie } = await signUp(p.reference, ada);
    const sides = { reference: p.referenceApi as CreateApi, latchkey: p.latchkeyAuth.api as unknown as CreateApi };
    const body = { redirect_uris: [REDIRECT], client_name: "Team app", skip_consent: true };
    const rows: Record<string, Record<string, unknown>> = {};
    for (const side of ["reference", "latchkey"] as const) {
      const created = (await sides[side].adminCreateOAuthClient({ body, headers: new Headers({ cookie }) })) as { client_id: string; reference_id?: string; user_id?: string };
      expect([created.reference_id, created.user_id]).toEqual(["team:example.com", undefined]);
      const row = p.db.prepare(`select * from oauthClient where clientId = ?`).all([created.client_id])[0] as Record<string, unknown>;
      expect(row).toMatchObject({ referenceId: "team:example.com", userId: null });
      rows[side] = comparable(row);
    }
    expect(rows.latchkey).toEqual(rows.reference);
    const withoutSession = await sides.reference.adminCreateOAuthClient({ body }).then(() => null, (e: unknown) => e as { statusCode?: number; status?: unknown });
    expect(withoutSession?.statusCode).toBe(401);
    const operator = (await sides.latchkey.adminCreateOAuthClient({ body })) as { client_id: string };
    expect(p.db.prepare(`select userId, referenceId from oauthClient where clientId = ?`).all([operator.client_id])).toEqual([{ userId: null, referenceId: null }]);
  });
});

describe("oauth-provider: cachedTrustedClients (DIVERGENCES.md row 135)", () => {
  it("row 135: changing a trusted client through the management routes — the reference answers 500, Latchkey 403, same body", async () => {
    const trusted = new Set<string>();
    const p = await pairWith({ cachedTrustedClients: trusted });
    const { cookie } = await signUp(p.reference, ada);
    const c = await register(p.reference, cookie);
    trusted.add(c.client_id);
    for (const [path, body] of [
      ["/oauth2/update-client", { client_id: c.client_id, update: { client_name: "x" } }],
      ["/oauth2/client/rotate-secret", { client_id: c.client_id }],
      ["/oauth2/delete-client", { client_id: c.client_id }],
    ] as const) {
      const reference = await p.reference(jsonPost(path, body, { cookie }));
      const latchkey = await p.latchkey(jsonPost(path, body, { cookie }));
      const expected = { error: "invalid_client", error_description: "trusted clients must be updated manually" };
      expect([reference.status, await reference.json()], path).toEqual([500, expected]);
      expect([latchkey.status, await latchkey.json()], path).toEqual([403, expected]);
    }
    expect(p.db.prepare(`select count(*) as n from oauthClient where clientId = ?`).all([c.client_id])[0]).toEqual({ n: 1 });
  });
});

describe("oauth-provider: discovery's jwks_uri with jwks.remoteUrl", () => {
  it("both sides advertise the remote key set", async () => {
    const jwks = { remoteUrl: "https://keys.example.com/.well-known/jwks.json", keyPairConfig: { alg: "EdDSA" as const } };
    const p = await createPair({
      reference: { plugins: [referenceJwt({ jwks }), referenceOAuthProvider(OPTIONS as Parameters<typeof referenceOAuthProvider>[0])] },
      latchkey: { plugins: [jwt({ jwks }), oauthProvider(OPTIONS)] },
    });
    try {
      for (const path of ["/.well-known/openid-configuration", "/.well-known/oauth-authorization-server"]) {
        const doc = async (side: "reference" | "latchkey") => ((await (await p[side](new Request(url(path)))).json()) as { jwks_uri: string }).jwks_uri;
        expect(await doc("reference"), path).toBe(jwks.remoteUrl);
        expect(await doc("latchkey"), path).toBe(jwks.remoteUrl);
      }
    } finally {
      p.close();
    }
  });
});

describe("oauth-provider: requestUriResolver beside the reference", () => {
  it("a resolved request_uri authorizes alike; unknown, missing client_id and no resolver are refused alike", async () => {
    const pushed = new Map<string, Record<string, string>>();
    const p = await pairWith({ requestUriResolver: async ({ requestUri }) => pushed.get(requestUri) ?? null });
    const { cookie } = await signUp(p.reference, ada);
    const c = await register(p.reference, cookie);
    const { challenge } = await pkce();
    await authorize(p.reference, cookie, c.client_id, challenge); // consent stored once
    pushed.set("urn:pushed", { response_type: "code", redirect_uri: REDIRECT, scope: "openid profile email offline_access", state: "p", code_challenge: challenge, code_challenge_method: "S256" });
    const go = async (side: "reference" | "latchkey", query: Record<string, string>) => {
      const res = await p[side](new Request(url(`/oauth2/authorize?${new URLSearchParams(query)}`), { headers: { cookie } }));
      const to = new URL(res.headers.get("location")!, "http://localhost:3000");
      to.searchParams.delete("code");
      return [res.status, to.href];
    };
    const queries: Record<string, string>[] = [
      { client_id: c.client_id, request_uri: "urn:pushed" },
      { client_id: c.client_id, request_uri: "urn:unknown" },
      { request_uri: "urn:pushed" },
    ];
    for (const query of queries) {
      expect(await go("latchkey", query), JSON.stringify(query)).toEqual(await go("reference", query));
    }
    expect((await go("latchkey", { client_id: c.client_id, request_uri: "urn:pushed" }))[1]).toContain("state=p");
  });
});
