import { CookieJar } from "@latchkey/test-support";
import { calculateJwkThumbprint, exportJWK, generateKeyPair, SignJWT } from "jose";
import * as oauth from "oauth4webapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { liveProvider, type LiveProvider } from "./live-provider.ts";

const REDIRECT = "http://127.0.0.1:1/callback";
const insecure = { [oauth.allowInsecureRequests]: true } as const;

type AdminApi = { adminCreateOAuthClient(input: { body: unknown }): Promise<{ client_id: string; client_secret?: string }> };

/** A fresh ES256 key pair as oauth4webapi's DPoP handle takes it, with its RFC 7638 thumbprint. */
async function dpopKey() {
  const pair = await generateKeyPair("ES256", { extractable: true });
  return { pair, jkt: await calculateJwkThumbprint(await exportJWK(pair.publicKey)) };
}

describe("DPoP (RFC 9449) with oauth4webapi over HTTP", () => {
  let provider: LiveProvider;
  let as: oauth.AuthorizationServer;
  let publicClient: { client_id: string };
  let confidential: { client_id: string; client_secret?: string };
  const jar = new CookieJar();
  const browserFetch = async (url: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    const cookie = jar.header();
    if (cookie) headers.set("cookie", cookie);
    const res = await fetch(url, { ...init, headers, redirect: "manual" });
    jar.absorb(res);
    return res;
  };

  beforeAll(async () => {
    provider = await liveProvider({ scopes: ["openid", "profile", "email", "offline_access", "reports:read"] });
    const api = provider.auth.api as unknown as AdminApi;
    publicClient = await api.adminCreateOAuthClient({
      body: { redirect_uris: [REDIRECT], application_type: "native", token_endpoint_auth_method: "none", skip_consent: true, grant_types: ["authorization_code", "refresh_token"] },
    });
    confidential = await api.adminCreateOAuthClient({
      body: {
        redirect_uris: [REDIRECT],
        application_type: "native",
        skip_consent: true,
        grant_types: ["authorization_code", "refresh_token", "client_credentials"],
        client_credentials_scopes: ["reports:read"],
      },
    });
    const signUp = await browserFetch(`${provider.issuer}/sign-up/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: provider.origin },
      body: JSON.stringify({ email: "dpop@example.com", password: "correct horse battery", name: "Dee Pop" }),
    });
    expect(signUp.status).toBe(200);
    as = await oauth.processDiscoveryResponse(new URL(provider.issuer), await oauth.discoveryRequest(new URL(provider.issuer), insecure));
  });
  afterAll(() => provider.close());

  /** The user authorizes `clientId` (consent skipped); returns the callback parameters and the verifier. */
  async function authorize(clientId: string, extra: Record<string, string> = {}) {
    const verifier = oauth.generateRandomCodeVerifier();
    const url = new URL(as.authorization_endpoint!);
    url.search = new URLSearchParams({
      client_id: clientId,
      redirect_uri: REDIRECT,
      response_type: "code",
      scope: "openid email offline_access",
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      ...extra,
    }).toString();
    const res = await browserFetch(url.href);
    expect(res.status).toBe(200);
    const callback = new URL(((await res.json()) as { url: string }).url);
    return { params: oauth.validateAuthResponse(as, { client_id: clientId }, callback), verifier };
  }

  it("a public client: dpop_jkt at authorize, DPoP-bound tokens, userinfo under the DPoP scheme, bound refresh", async () => {
    const rp: oauth.Client = { client_id: publicClient.client_id };
    const key = await dpopKey();
    const DPoP = oauth.DPoP(rp, key.pair);
    const { params, verifier } = await authorize(rp.client_id, { dpop_jkt: key.jkt });
    const response = await oauth.authorizationCodeGrantRequest(as, rp, oauth.None(), params, REDIRECT, verifier, { ...insecure, DPoP });
    const tokens = await oauth.processAuthorizationCodeResponse(as, rp, response);
    expect(tokens.token_type).toBe("dpop");
    expect(tokens.refresh_token).toBeTruthy();

    // userinfo: DPoP scheme with a proof carrying `ath`.
    const info = await oauth.userInfoRequest(as, rp, tokens.access_token, { ...insecure, DPoP });
    expect(info.status).toBe(200);
    expect(((await info.json()) as { email: string }).email).toBe("dpop@example.com");
    // The same token as a Bearer token is refused with a DPoP challenge (RFC 9449 §7.1).
    const bearer = await fetch(as.userinfo_endpoint!, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(bearer.status).toBe(401);
    expect(bearer.headers.get("www-authenticate")).toMatch(/^DPoP error="invalid_token"/);

    // The refresh token is bound to the key: another key is refused and does not spend it.
    const other = await dpopKey();
    const stolen = await oauth.refreshTokenGrantRequest(as, rp, oauth.None(), tokens.refresh_token!, { ...insecure, DPoP: oauth.DPoP(rp, other.pair) });
    expect(stolen.status).toBe(400);
    expect(await stolen.json()).toEqual({ error: "invalid_dpop_proof", error_description: "DPoP proof key does not match the bound token" });
    const unproven = await fetch(as.token_endpoint!, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: tokens.refresh_token!, client_id: rp.client_id }),
    });
    expect(await unproven.json()).toEqual({ error: "invalid_dpop_proof", error_description: "DPoP proof header is required" });
    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      rp,
      await oauth.refreshTokenGrantRequest(as, rp, oauth.None(), tokens.refresh_token!, { ...insecure, DPoP }),
    );
    expect(refreshed.token_type).toBe("dpop");
    expect(refreshed.access_token).not.toBe(tokens.access_token);
  });

  it("a code authorized with dpop_jkt is refused without a proof by that key, and stays redeemable", async () => {
    const rp: oauth.Client = { client_id: publicClient.client_id };
    const key = await dpopKey();
    const { params, verifier } = await authorize(rp.client_id, { dpop_jkt: key.jkt });
    const bare = await oauth.authorizationCodeGrantRequest(as, rp, oauth.None(), params, REDIRECT, verifier, insecure);
    expect(bare.status).toBe(400);
    expect(await bare.json()).toEqual({ error: "invalid_dpop_proof", error_description: "DPoP proof header is required" });
    const wrong = await oauth.authorizationCodeGrantRequest(as, rp, oauth.None(), params, REDIRECT, verifier, { ...insecure, DPoP: oauth.DPoP(rp, (await dpopKey()).pair) });
    expect(((await wrong.json()) as { error: string }).error).toBe("invalid_dpop_proof");
    const right = await oauth.authorizationCodeGrantRequest(as, rp, oauth.None(), params, REDIRECT, verifier, { ...insecure, DPoP: oauth.DPoP(rp, key.pair) });
    expect(right.status).toBe(200);
  });

  it("a confidential client: client_credentials with DPoP, introspection shows cnf.jkt; a refresh may use a new key (RFC 9449 §5)", async () => {
    const rp: oauth.Client = { client_id: confidential.client_id };
    const auth = oauth.ClientSecretBasic(confidential.client_secret!);
    const key = await dpopKey();
    const DPoP = oauth.DPoP(rp, key.pair);
    const m2m = await oauth.processClientCredentialsResponse(
      as,
      rp,
      await oauth.clientCredentialsGrantRequest(as, rp, auth, new URLSearchParams({ scope: "reports:read" }), { ...insecure, DPoP }),
    );
    expect(m2m.token_type).toBe("dpop");
    const introspection = await oauth.processIntrospectionResponse(as, rp, await oauth.introspectionRequest(as, rp, auth, m2m.access_token, insecure));
    expect(introspection).toMatchObject({ active: true, token_type: "DPoP", cnf: { jkt: key.jkt } });

    const { params, verifier } = await authorize(rp.client_id);
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      rp,
      await oauth.authorizationCodeGrantRequest(as, rp, auth, params, REDIRECT, verifier, { ...insecure, DPoP }),
    );
    expect(tokens.token_type).toBe("dpop");
    const next = await dpopKey();
    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      rp,
      await oauth.refreshTokenGrantRequest(as, rp, auth, tokens.refresh_token!, { ...insecure, DPoP: oauth.DPoP(rp, next.pair) }),
    );
    const info = await oauth.processIntrospectionResponse(as, rp, await oauth.introspectionRequest(as, rp, auth, refreshed.access_token, insecure));
    expect(info).toMatchObject({ active: true, cnf: { jkt: next.jkt } });
  });

  it("refuses a replayed proof, a proof for another URL or method, and a stale proof", async () => {
    const key = await dpopKey();
    const jwk = await exportJWK(key.pair.publicKey);
    const proof = (claims: Record<string, unknown>) =>
      new SignJWT({ htm: "POST", htu: as.token_endpoint, jti: crypto.randomUUID(), iat: Math.floor(Date.now() / 1000), ...claims })
        .setProtectedHeader({ alg: "ES256", typ: "dpop+jwt", jwk })
        .sign(key.pair.privateKey);
    const basic = `Basic ${Buffer.from(`${confidential.client_id}:${confidential.client_secret}`).toString("base64")}`;
    const send = (dpop: string) =>
      fetch(as.token_endpoint!, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", authorization: basic, dpop },
        body: new URLSearchParams({ grant_type: "client_credentials", scope: "reports:read" }),
      });
    const once = await proof({});
    expect((await send(once)).status).toBe(200);
    for (const [dpop, description] of [
      [once, "DPoP proof jti has already been used"],
      [await proof({ htu: `${provider.issuer}/oauth2/userinfo` }), "DPoP proof htu does not match the request URL"],
      [await proof({ htm: "GET" }), "DPoP proof htm does not match the request method"],
      [await proof({ iat: Math.floor(Date.now() / 1000) - 3600 }), "DPoP proof iat is outside the accepted window"],
      ["a.b.c", "DPoP proof header is invalid"],
    ]) {
      const res = await send(dpop!);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error: "invalid_dpop_proof", error_description: description });
    }
  });
});
