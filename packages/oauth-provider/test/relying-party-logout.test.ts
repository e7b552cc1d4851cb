import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { createAuth, type Auth } from "@latchkey/core";
import { kyselyAdapter } from "@latchkey/adapter-kysely";
import { jwt } from "@latchkey/jwt";
import { CookieJar, testDatabase, TEST_SECRET, type TestDatabase } from "@latchkey/test-support";
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from "jose";
import * as oidc from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { oauthProvider, settleBackchannelLogouts, type OAuthProviderPlugin } from "../src/index.ts";

// openid-client 6 as the relying party over HTTP on 127.0.0.1: RP-initiated logout through
// `buildEndSessionUrl`, and a back-channel listener that verifies the logout token against the
// provider's JWKS fetched over HTTP (jose `createRemoteJWKSet`), as a real RP does.
const REDIRECT = "http://127.0.0.1:1/callback";
const POST_LOGOUT = "http://127.0.0.1:1/logged-out";

let origin: string;
let auth: Auth;
let db: TestDatabase;
let stopProvider: () => Promise<void>;
let listener: Server;
let listenerURL: string;
const verifiedTokens: JWTPayload[] = [];
const rejected: string[] = [];

beforeAll(async () => {
  db = await testDatabase("sqlite");
  let current: Auth | undefined;
  const fetchHandler = (request: Request) => (current ? current.handler(request) : Promise.resolve(new Response(null, { status: 503 })));
  await new Promise<void>((resolve) => {
    const server = serve({ fetch: fetchHandler, port: 0, hostname: "127.0.0.1", overrideGlobalObjects: false }, (info: AddressInfo) => {
      origin = `http://127.0.0.1:${info.port}`;
      current = createAuth({
        database: kyselyAdapter(db.driver),
        secret: TEST_SECRET,
        baseURL: origin,
        logger: { disabled: true },
        emailAndPassword: { enabled: true },
        plugins: [
          jwt(),
          oauthProvider({ loginPage: `${origin}/login`, consentPage: `${origin}/consent`, backchannelLogout: { allowedHosts: ["127.0.0.1"], timeout: 2000 } }),
        ],
      });
      auth = current;
      stopProvider = () => new Promise<void>((done) => server.close(() => done()));
      void current.createTables().then(() => resolve());
    });
  });
  // The RP's back-channel endpoint (Back-Channel Logout §2.6 validation with jose).
  const jwks = createRemoteJWKSet(new URL(`${origin}/api/auth/jwks`));
  listener = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      const token = new URLSearchParams(body).get("logout_token") ?? "";
      jwtVerify(token, jwks, { issuer: `${origin}/api/auth`, typ: "logout+jwt" })
        .then(({ payload }) => {
          verifiedTokens.push(payload);
          res.writeHead(200).end();
        })
        .catch((error: Error) => {
          rejected.push(error.message);
          res.writeHead(400).end();
        });
    });
  });
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  listenerURL = `http://127.0.0.1:${(listener.address() as AddressInfo).port}/backchannel`;
});
afterAll(async () => {
  await settleBackchannelLogouts();
  await new Promise((resolve) => listener.close(resolve));
  await stopProvider();
  await auth.$context.adapter.close?.();
  await db.drop();
});

/** A browser: fetch with a cookie jar and no automatic redirects. */
function browser() {
  const jar = new CookieJar();
  return async (url: string, init: RequestInit = {}): Promise<Response> => {
    const headers = new Headers(init.headers);
    const cookie = jar.header();
    if (cookie) headers.set("cookie", cookie);
    const res = await fetch(url, { ...init, headers, redirect: "manual" });
    jar.absorb(res);
    return res;
  };
}

describe("openid-client 6: RP-initiated and back-channel logout over HTTP", () => {
  it("sign-in, then buildEndSessionUrl: the session ends, the browser lands on the post-logout URI with state, the back-channel listener verifies the logout token", async () => {
    const user = browser();
    const issuer = new URL(`${origin}/api/auth`);
    expect((await user(`${issuer.href}/sign-up/email`, { method: "POST", headers: { "content-type": "application/json", origin }, body: JSON.stringify({ email: "lo@example.com", password: "correct horse battery", name: "Lo" }) })).status).toBe(200);
    const api = auth.api as unknown as Auth<{ plugins: [OAuthProviderPlugin] }>["api"];
    const registered = (await api.adminCreateOAuthClient({
      body: {
        redirect_uris: [REDIRECT],
        post_logout_redirect_uris: [POST_LOGOUT],
        backchannel_logout_uri: listenerURL,
        backchannel_logout_session_required: true,
        application_type: "native",
        skip_consent: true,
        enable_end_session: true,
      },
    })) as unknown as { client_id: string; client_secret: string };

    const config = await oidc.discovery(issuer, registered.client_id, { id_token_signed_response_alg: "EdDSA" }, oidc.ClientSecretBasic(registered.client_secret), {
      execute: [oidc.allowInsecureRequests],
    });
    expect(config.serverMetadata().end_session_endpoint).toBe(`${issuer.href}/oauth2/end-session`);
    expect(config.serverMetadata()).toMatchObject({ backchannel_logout_supported: true, backchannel_logout_session_supported: true });
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const url = oidc.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: "openid", code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: "S256", state });
    const answer = await user(url.href);
    const callback = new URL(((await answer.json()) as { url: string }).url);
    const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state });
    const claims = tokens.claims()!;
    expect(claims.sid).toBeTruthy();

    const endSession = oidc.buildEndSessionUrl(config, { id_token_hint: tokens.id_token!, post_logout_redirect_uri: POST_LOGOUT, state: "after-logout" });
    // Node's fetch sends `Sec-Fetch-Mode: cors`: the provider answers as to a script, `{ redirect, url }`.
    const loggedOut = await user(endSession.href);
    expect(await loggedOut.json()).toEqual({ redirect: true, url: `${POST_LOGOUT}?state=after-logout` });
    const session = await user(`${issuer.href}/get-session`);
    expect(await session.json()).toBeNull();

    await settleBackchannelLogouts();
    expect(rejected).toEqual([]);
    expect(verifiedTokens).toHaveLength(1);
    expect(verifiedTokens[0]).toMatchObject({ aud: registered.client_id, sub: claims.sub, sid: claims.sid, events: { "http://schemas.openid.net/event/backchannel-logout": {} } });
    expect(verifiedTokens[0]).not.toHaveProperty("nonce");
    expect(await oidc.tokenIntrospection(config, tokens.access_token)).toEqual({ active: false });
  });
});
