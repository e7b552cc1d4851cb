import { oauthProvider as referenceOAuthProvider } from "@better-auth/oauth-provider";
import { oauthProviderClient as referenceOAuthProviderClient } from "@better-auth/oauth-provider/client";
import { createAuthClient } from "better-auth/client";
import { jwt as referenceJwt } from "better-auth/plugins";
import { jwt } from "@latchkey/jwt";
import { oauthProvider } from "@latchkey/oauth-provider";
import { createAuth } from "@latchkey/core";
import { kyselyAdapter } from "@latchkey/adapter-kysely";
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from "jose";
import { describe, expect, it } from "vitest";
import { signUp } from "./support/flows.ts";
import { BASE_URL, createPair, jsonPost, url, type Handler } from "./support/instances.ts";
import { openSqlite, tempDatabaseFile, type SqliteConnection } from "./support/sqlite.ts";
import { jarFetch } from "./support/client-fetch.ts";
import { listen } from "./support/server.ts";
import {
  ada,
  answer,
  authorize,
  form,
  ISSUER,
  OPTIONS,
  pairPerTest,
  pkce,
  redeem,
  REDIRECT,
  register,
  type Registered,
} from "./support/oauth-provider.ts";

/**
 * `@latchkey/oauth-provider` beside the reference's `oauthProvider()` (@better-auth/oauth-provider
 * 1.7.5) on one SQLite file and one secret: clients, codes, refresh tokens, access tokens and
 * consents written by one side are used by the other; discovery, token answers and token
 * errors are compared on the wire; the divergence rows are in `oauth-provider-divergences.test.ts`.
 */
const pairWith = pairPerTest();

describe("oauth-provider: stored rows cross over", () => {
  it("the tables Latchkey creates are the reference's: same columns, types and NOT NULL", async () => {
    const p = await pairWith();
    const { file, remove } = tempDatabaseFile();
    const own = openSqlite(file);
    try {
      const alone = createAuth({ database: kyselyAdapter(own), secret: "x".repeat(40), baseURL: BASE_URL, plugins: [jwt(), oauthProvider(OPTIONS)] });
      await alone.createTables();
      const columns = (db: SqliteConnection, table: string) =>
        db.prepare(`select name, type, "notnull" from pragma_table_info('${table}') order by name`).all([]);
      for (const table of ["oauthClient", "oauthResource", "oauthClientResource", "oauthRefreshToken", "oauthAccessToken", "oauthConsent", "oauthClientAssertion"]) {
        const reference = columns(p.db, table);
        expect(reference.length, table).toBeGreaterThan(0);
        expect(columns(own, table), table).toEqual(reference);
        const indexes = (db: SqliteConnection) =>
          db.prepare(`select name, "unique" from pragma_index_list('${table}') order by name`).all([]);
        expect(indexes(own), `${table} indexes`).toEqual(indexes(p.db));
      }
    } finally {
      own.close();
      remove();
    }
  });

  for (const [registrar, redeemer] of [
    ["reference", "latchkey"],
    ["latchkey", "reference"],
  ] as const) {
    it(`a client registered on the ${registrar} authorizes, redeems, refreshes and introspects on the ${redeemer}; codes and refresh tokens cross over`, async () => {
      const p = await pairWith();
      const { cookie } = await signUp(p.reference, ada);
      const here = p[registrar];
      const there = p[redeemer];
      const c = await register(here, cookie);
      // Code issued (and consent stored) by the registrar, redeemed at the other side.
      const first = await pkce();
      const code = await authorize(here, cookie, c.client_id, first.challenge);
      const tokens = (await (await redeem(there, c, code, first.verifier)).json()) as Record<string, string>;
      expect(tokens).toMatchObject({ token_type: "Bearer", scope: "openid profile email offline_access" });
      const keys = (await (await there(new Request(url("/jwks")))).json()) as JSONWebKeySet;
      await jwtVerify(tokens.id_token!, createLocalJWKSet(keys), { issuer: ISSUER, audience: c.client_id });
      // The consent the registrar stored is honoured by the other side: a code without the consent page.
      const second = await pkce();
      const code2 = await authorize(there, cookie, c.client_id, second.challenge);
      expect((await redeem(here, c, code2, second.verifier)).status).toBe(200);
      // A refresh token one side issued is rotated by the other, and the opaque access token it gets is read back.
      const refreshed = await here(form("/oauth2/token", { grant_type: "refresh_token", refresh_token: tokens.refresh_token! }, c));
      expect(refreshed.status).toBe(200);
      const rotated = (await refreshed.json()) as Record<string, string>;
      const introspected = await there(form("/oauth2/introspect", { token: rotated.access_token! }, c));
      expect(await introspected.json()).toMatchObject({ active: true, client_id: c.client_id, scope: "openid profile email offline_access" });
      const info = await there(new Request(url("/oauth2/userinfo"), { headers: { authorization: `Bearer ${tokens.access_token}` } }));
      expect(await info.json()).toMatchObject({ email: ada.email, name: ada.name, given_name: "Ada", family_name: "Lovelace" });
      // The spent refresh token replayed on the registrar's side: refused by both.
      const replay = await there(form("/oauth2/token", { grant_type: "refresh_token", refresh_token: tokens.refresh_token! }, c));
      expect(await answer(replay)).toMatchObject({ status: 400, body: { error: "invalid_grant", error_description: "invalid refresh token" } });
    });
  }
});

describe("oauth-provider: wire", () => {
  it("discovery documents: the same JSON and headers on both (OpenID, RFC 8414 path-inserted and appended)", async () => {
    const p = await pairWith();
    for (const path of ["/api/auth/.well-known/openid-configuration", "/.well-known/oauth-authorization-server/api/auth", "/api/auth/.well-known/oauth-authorization-server"]) {
      const [r, l] = [await p.reference(new Request(`${BASE_URL}${path}`)), await p.latchkey(new Request(`${BASE_URL}${path}`))];
      expect([l.status, l.headers.get("cache-control"), l.headers.get("content-type")], path).toEqual([r.status, r.headers.get("cache-control"), r.headers.get("content-type")]);
      expect(await l.json(), path).toEqual(await r.json());
    }
    const [r405, l405] = [
      await p.reference(new Request(`${ISSUER}/.well-known/openid-configuration`, { method: "POST" })),
      await p.latchkey(new Request(`${ISSUER}/.well-known/openid-configuration`, { method: "POST" })),
    ];
    expect([l405.status, l405.headers.get("allow")]).toEqual([r405.status, r405.headers.get("allow")]);
  });

  it("registration answers: the same members and values (ids, secrets and times aside)", async () => {
    const p = await pairWith({ allowUnauthenticatedClientRegistration: true });
    const body = { redirect_uris: [REDIRECT], client_name: "RP", extra_member: "x" };
    const [r, l] = [await p.reference(jsonPost("/oauth2/register", body)), await p.latchkey(jsonPost("/oauth2/register", body))];
    expect(l.status).toBe(r.status);
    const strip = ({ client_id, client_secret, client_id_issued_at, ...rest }: Record<string, unknown>) => ({
      rest,
      shapes: [typeof client_id, typeof client_secret, typeof client_id_issued_at],
    });
    expect(strip((await l.json()) as Record<string, unknown>)).toEqual(strip((await r.json()) as Record<string, unknown>));
  });

  it("registration with an initial access token: the same answers, accepted and refused", async () => {
    const p = await pairWith({ validateInitialAccessToken: ({ initialAccessToken }) => (initialAccessToken === "iat-good" ? { referenceId: "org-1" } : false) });
    const post = (token: string) =>
      jsonPost("/oauth2/register", { redirect_uris: [REDIRECT], grant_types: ["client_credentials"], response_types: [] }, { authorization: `Bearer ${token}` });
    const strip = ({ client_id, client_secret, client_id_issued_at, ...rest }: Record<string, unknown>) => ({
      rest,
      shapes: [typeof client_id, typeof client_secret, typeof client_id_issued_at],
    });
    const [r, l] = [await answer(await p.reference(post("iat-good"))), await answer(await p.latchkey(post("iat-good")))];
    expect(r.status).toBe(201);
    expect({ ...l, body: strip(l.body as Record<string, unknown>) }).toEqual({ ...r, body: strip(r.body as Record<string, unknown>) });
    const [rr, lr] = [await p.reference(post("nope")), await p.latchkey(post("nope"))];
    expect([lr.status, lr.headers.get("www-authenticate"), await lr.json()]).toEqual([rr.status, rr.headers.get("www-authenticate"), await rr.json()]);
  });

  it("customAccessTokenClaims: introspection of one token answers the same JSON on both sides", async () => {
    const p = await pairWith({ customAccessTokenClaims: ({ scopes }) => ({ tenant: "acme", count: scopes.length, iss: "forged" }) });
    const { cookie } = await signUp(p.reference, ada);
    const c = await register(p.reference, cookie);
    const { verifier, challenge } = await pkce();
    const tokens = (await (await redeem(p.latchkey, c, await authorize(p.latchkey, cookie, c.client_id, challenge), verifier)).json()) as Record<string, string>;
    const [r, l] = [
      await answer(await p.reference(form("/oauth2/introspect", { token: tokens.access_token! }, c))),
      await answer(await p.latchkey(form("/oauth2/introspect", { token: tokens.access_token! }, c))),
    ];
    expect(r.body).toMatchObject({ active: true, tenant: "acme", count: 4 });
    expect(l).toEqual(r);
  });

  it("token success: the same members, lifetimes and ID token claims", async () => {
    const p = await pairWith();
    const { cookie } = await signUp(p.reference, ada);
    const c = await register(p.reference, cookie);
    const results: Array<Record<string, unknown>> = [];
    for (const side of [p.reference, p.latchkey]) {
      const { verifier, challenge } = await pkce();
      const code = await authorize(side, cookie, c.client_id, challenge, { nonce: "n" });
      const res = await redeem(side, c, code, verifier);
      expect([res.status, res.headers.get("cache-control"), res.headers.get("pragma")]).toEqual([200, "no-store", "no-cache"]);
      results.push((await res.json()) as Record<string, unknown>);
    }
    const [r, l] = results as [Record<string, string>, Record<string, string>];
    expect(Object.keys(l)).toEqual(Object.keys(r));
    expect([l.token_type, l.expires_in, l.scope]).toEqual([r.token_type, r.expires_in, r.scope]);
    const claims = (token: string) => {
      const { iat, exp, auth_time, at_hash, ...rest } = JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString()) as Record<string, unknown>;
      return { rest, life: (exp as number) - (iat as number), kinds: [typeof auth_time, typeof at_hash] };
    };
    expect(claims(l.id_token!)).toEqual(claims(r.id_token!));
  });

  it("token, introspection and revocation errors: the same status, body and Cache-Control on both", async () => {
    const p = await pairWith();
    const { cookie } = await signUp(p.reference, ada);
    const c = await register(p.reference, cookie);
    const wrongSecret = { ...c, client_secret: "wrong" };
    const cases: Array<[string, Record<string, string>, Registered | undefined]> = [
      ["/oauth2/token", { grant_type: "password" }, c],
      ["/oauth2/token", { grant_type: "authorization_code", code: "unknown", code_verifier: "v".repeat(43), redirect_uri: REDIRECT }, c],
      ["/oauth2/token", { grant_type: "authorization_code", code_verifier: "v".repeat(43) }, c],
      ["/oauth2/token", { grant_type: "refresh_token", refresh_token: "unknown" }, c],
      ["/oauth2/token", { grant_type: "refresh_token" }, c],
      ["/oauth2/token", { grant_type: "client_credentials" }, c],
      ["/oauth2/token", { grant_type: "client_credentials" }, wrongSecret],
      ["/oauth2/token", { grant_type: "client_credentials", client_id: c.client_id, client_secret: c.client_secret }, c],
      ["/oauth2/token", { grant_type: "client_credentials", client_id: "nobody" }, undefined],
      ["/oauth2/introspect", { token: "unknown" }, c],
      ["/oauth2/introspect", { token: "unknown", client_id: c.client_id }, undefined],
      ["/oauth2/introspect", { token: "x" }, wrongSecret],
      ["/oauth2/revoke", { token: "x", client_id: "nobody", client_secret: "s" }, undefined],
      ["/oauth2/userinfo", { access_token: "unknown" }, undefined],
    ];
    for (const [path, fields, creds] of cases) {
      const [r, l] = [await answer(await p.reference(form(path, fields, creds))), await answer(await p.latchkey(form(path, fields, creds)))];
      expect(l, `${path} ${JSON.stringify(fields)}`).toEqual(r);
    }
  });
});

describe("oauth-provider: client and consent management on the wire", () => {
  it("get-client, get-clients, public-client, update-client, rotate-secret, consents and delete: the same answers (ids and secrets aside)", async () => {
    const p = await pairWith();
    const { cookie } = await signUp(p.reference, ada);
    const stranger = (await signUp(p.reference, { email: "eve@example.com", password: "correct horse battery", name: "Eve" })).cookie;
    const steps: Array<(side: Handler, c: Registered) => Request> = [
      (_, c) => new Request(url(`/oauth2/get-client?client_id=${c.client_id}`), { headers: { cookie } }),
      () => new Request(url("/oauth2/get-clients"), { headers: { cookie } }),
      (_, c) => new Request(url(`/oauth2/public-client?client_id=${c.client_id}`), { headers: { cookie: stranger } }),
      (_, c) => new Request(url(`/oauth2/get-client?client_id=${c.client_id}`), { headers: { cookie: stranger } }),
      () => new Request(url("/oauth2/get-client?client_id=nope"), { headers: { cookie } }),
      (_, c) => jsonPost("/oauth2/update-client", { client_id: c.client_id, update: { client_name: "Renamed", scope: "openid email" } }, { cookie }),
      (_, c) => jsonPost("/oauth2/update-client", { client_id: c.client_id, update: { client_name: "Theirs" } }, { cookie: stranger }),
      (_, c) => jsonPost("/oauth2/client/rotate-secret", { client_id: c.client_id }, { cookie }),
      () => new Request(url("/oauth2/get-consents"), { headers: { cookie } }),
      (_, c) => jsonPost("/oauth2/public-client-prelogin", { client_id: c.client_id }),
      (_, c) => jsonPost("/oauth2/public-client-prelogin", { client_id: c.client_id, oauth_query: "client_id=x&sig=forged" }),
      () => jsonPost("/oauth2/update-consent", { id: "nope", update: { scopes: ["openid"] } }, { cookie }),
      () => new Request(url("/oauth2/get-consent?id=nope"), { headers: { cookie } }),
      () => jsonPost("/oauth2/delete-consent", { id: "nope" }, { cookie }),
      (_, c) => jsonPost("/oauth2/delete-client", { client_id: c.client_id }, { cookie: stranger }),
      (_, c) => jsonPost("/oauth2/delete-client", { client_id: c.client_id }, { cookie }),
      (_, c) => new Request(url(`/oauth2/get-client?client_id=${c.client_id}`), { headers: { cookie } }),
    ];
    const masked = (value: unknown, c: Registered): unknown =>
      JSON.parse(
        JSON.stringify(value ?? null)
          .replaceAll(c.client_id, "<client>")
          .replace(/"client_secret":"[A-Za-z]+"/g, '"client_secret":"<secret>"')
          .replace(/"client_id_issued_at":\d+/g, '"client_id_issued_at":0')
          .replace(/"user_id":"[^"]+"/g, '"user_id":"<user>"'),
      ) as unknown;
    const runs: unknown[][] = [];
    for (const side of [p.reference, p.latchkey]) {
      const c = await register(side, cookie, { client_name: "Managed", client_uri: "https://client.example.com" });
      const run: unknown[] = [];
      for (const step of steps) {
        const res = await side(step(side, c));
        const text = await res.text();
        run.push({ status: res.status, noStore: res.headers.get("cache-control"), body: masked(text ? JSON.parse(text) : undefined, c) });
      }
      runs.push(run);
    }
    expect(runs[1]).toEqual(runs[0]);
  });
});

describe("oauth-provider: a login page's signed request", () => {
  it("one side's login-page query is honoured by the other: public-client-prelogin and sign-in resume", async () => {
    const p = await pairWith({ allowPublicClientPrelogin: true });
    const { cookie } = await signUp(p.reference, ada);
    const c = await register(p.reference, cookie, { client_uri: "https://client.example.com" });
    for (const [signer, reader] of [
      ["reference", "latchkey"],
      ["latchkey", "reference"],
    ] as const) {
      const { challenge } = await pkce();
      const query = new URLSearchParams({ response_type: "code", client_id: c.client_id, redirect_uri: REDIRECT, scope: "openid", state: "s", code_challenge: challenge, code_challenge_method: "S256" });
      const page = await p[signer](new Request(url(`/oauth2/authorize?${query}`)));
      const login = new URL(page.headers.get("location")!, BASE_URL);
      expect(login.pathname).toBe("/login");
      const oauthQuery = login.search.slice(1);
      const [a, b] = [
        await answer(await p[signer](jsonPost("/oauth2/public-client-prelogin", { client_id: c.client_id, oauth_query: oauthQuery }))),
        await answer(await p[reader](jsonPost("/oauth2/public-client-prelogin", { client_id: c.client_id, oauth_query: oauthQuery }))),
      ];
      expect(b).toEqual(a);
      expect(a.body).toMatchObject({ client_id: c.client_id, client_uri: "https://client.example.com" });
      // The sign-in on the other side resumes the authorization the first side signed.
      const signIn = await p[reader](jsonPost("/sign-in/email", { email: ada.email, password: ada.password, oauth_query: oauthQuery }));
      expect(signIn.status, `${signer} → ${reader}`).toBe(200);
      // No consent yet for this client: the resumed authorization goes on to the consent page.
      const next = new URL(((await signIn.json()) as { url: string }).url, BASE_URL);
      expect([next.pathname, next.searchParams.get("client_id")], `${signer} → ${reader}`).toEqual(["/consent", c.client_id]);
      expect(next.searchParams.get("sig"), `${signer} → ${reader}`).toBeTruthy();
    }
  });
});

describe("oauth-provider: the reference's own client with oauthProviderClient(), over real HTTP", () => {
  /** Sign-up, client creation, consent from the consent page and management through `authClient.oauth2.*`, normalised. */
  async function clientFlow(side: "reference" | "latchkey"): Promise<unknown> {
    const server = await listen();
    const p = await createPair({
      baseURL: server.origin,
      reference: { plugins: [referenceJwt(), referenceOAuthProvider(OPTIONS as Parameters<typeof referenceOAuthProvider>[0])] },
      latchkey: { plugins: [jwt(), oauthProvider(OPTIONS)] },
    });
    server.use(p[side]);
    try {
      const jar = jarFetch();
      const auth = createAuthClient({ baseURL: `${server.origin}/api/auth`, fetchOptions: { customFetchImpl: jar.fetch }, plugins: [referenceOAuthProviderClient()] });
      // The reference client infers nothing from this plugin's server side: calls go by path.
      const oauth2 = (auth as unknown as { oauth2: Record<string, (...args: unknown[]) => Promise<{ data: unknown; error: unknown }>> & { client: Record<string, (...args: unknown[]) => Promise<{ data: unknown; error: unknown }>> } }).oauth2;
      await auth.signUp.email(ada);
      const created = (await oauth2.createClient!({ redirect_uris: [REDIRECT], client_name: "Via client" })).data as Registered;
      const { challenge } = await pkce();
      const query = new URLSearchParams({ response_type: "code", client_id: created.client_id, redirect_uri: REDIRECT, scope: "openid", state: "s", code_challenge: challenge, code_challenge_method: "S256" });
      const page = await jar.fetch(`${server.origin}/api/auth/oauth2/authorize?${query}`, { redirect: "manual", headers: { "sec-fetch-mode": "navigate" } });
      const location = page.status === 302 ? page.headers.get("location")! : ((await page.json()) as { url: string }).url;
      const consentQuery = new URL(location, server.origin).search.slice(1);
      const consent = await oauth2.consent!({ accept: true, oauth_query: consentQuery });
      const redirect = new URL((consent.data as { url: string }).url);
      const got = await oauth2.getClient!({ query: { client_id: created.client_id } });
      const consents = await oauth2.getConsents!();
      const rotated = await oauth2.client.rotateSecret!({ client_id: created.client_id });
      const removed = await oauth2.deleteClient!({ client_id: created.client_id });
      const mask = (value: unknown) =>
        JSON.parse(
          JSON.stringify(value ?? null)
            .replaceAll(created.client_id, "<client>")
            .replace(/"client_secret":"[A-Za-z]+"/g, '"client_secret":"<secret>"')
            .replace(/"(client_id_issued_at|createdAt|updatedAt|id|userId|user_id)":("[^"]*"|\d+)/g, '"$1":"<x>"'),
        ) as unknown;
      return {
        code: /^[A-Za-z0-9]{32}$/.test(redirect.searchParams.get("code") ?? ""),
        state: redirect.searchParams.get("state"),
        got: mask(got.data),
        consents: mask(consents.data),
        rotated: mask(rotated.data),
        removed: [removed.data ?? null, removed.error ?? null],
      };
    } finally {
      p.close();
      await server.close();
    }
  }

  it("the same results against both servers", async () => {
    const [reference, latchkey] = [await clientFlow("reference"), await clientFlow("latchkey")];
    expect(reference).toMatchObject({ code: true, state: "s" });
    expect(latchkey).toEqual(reference);
  });
});

