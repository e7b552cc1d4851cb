import { serve } from "@hono/node-server";
import { kyselyAdapter } from "@latchkey/adapter-kysely";
import { createAuth, type Auth } from "@latchkey/core";
import { jwt } from "@latchkey/jwt";
import { oauthProvider } from "@latchkey/oauth-provider";
import { browserFetch, CookieJar, testDatabase, TEST_SECRET, type TestDatabase } from "@latchkey/test-support";
import type { AddressInfo } from "node:net";
import * as oidc from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { oauthDeviceAuthorization } from "../src/oauth.ts";
import { DEVICE_GRANT, deviceClient } from "./oauth-instance.ts";

// openid-client (a certified RP library) over real HTTP on 127.0.0.1: discovery, the device
// authorization request, its own polling loop, ID token validation, userinfo and refresh;
// the user signs in and approves in a cookie-keeping browser session over HTTP too.
describe("openid-client's device flow against oauthProvider() + oauthDeviceAuthorization() over HTTP", () => {
  let auth: Auth;
  let db: TestDatabase;
  let origin: string;
  let close: () => Promise<void>;
  beforeAll(async () => {
    db = await testDatabase("sqlite");
    await new Promise<void>((ready) => {
      const server = serve({ fetch: (request: Request) => auth.handler(request), port: 0, hostname: "127.0.0.1", overrideGlobalObjects: false }, (info: AddressInfo) => {
        origin = `http://127.0.0.1:${info.port}`;
        auth = createAuth({
          database: kyselyAdapter(db.driver),
          secret: TEST_SECRET,
          baseURL: origin,
          logger: { disabled: true },
          emailAndPassword: { enabled: true },
          plugins: [
            jwt(),
            oauthProvider({ loginPage: `${origin}/login`, consentPage: `${origin}/consent`, scopes: ["openid", "profile", "email", "offline_access"] }),
            oauthDeviceAuthorization({ interval: "1s" }),
          ],
        });
        close = () => new Promise<void>((done) => server.close(() => done()));
        void auth.createTables().then(() => ready());
      });
    });
  });
  afterAll(async () => {
    await close();
    await auth.$context.adapter.close?.();
    await db.drop();
  });

  /** A browser on the provider's origin, over HTTP, keeping its cookies; signs up and approves `userCode`. */
  async function userApproves(userCode: string, email: string, decision: "approve" | "deny" = "approve"): Promise<string> {
    const browser = browserFetch((request) => fetch(request), new CookieJar());
    const json = { "content-type": "application/json", origin };
    const signUp = await browser(`${origin}/api/auth/sign-up/email`, { method: "POST", headers: json, body: JSON.stringify({ email, password: "correct horse battery", name: "Viewer" }) });
    expect(signUp.status).toBe(200);
    const userId = ((await signUp.json()) as { user: { id: string } }).user.id;
    const page = await browser(`${origin}/api/auth/device?user_code=${encodeURIComponent(userCode)}`);
    expect(await page.json()).toMatchObject({ status: "pending", scope: expect.any(String) });
    const decided = await browser(`${origin}/api/auth/device/${decision}`, { method: "POST", headers: json, body: JSON.stringify({ userCode }) });
    expect(decided.status).toBe(200);
    return userId;
  }

  it("confidential client (client_secret_basic): ID token, userinfo, refresh", async () => {
    const made = await deviceClient({ auth }, { token_endpoint_auth_method: "client_secret_basic" });
    const config = await oidc.discovery(new URL(`${origin}/api/auth`), made.client_id, undefined, oidc.ClientSecretBasic(made.client_secret!), { execute: [oidc.allowInsecureRequests] });
    expect(config.serverMetadata().device_authorization_endpoint).toBe(`${origin}/api/auth/device/code`);
    expect(config.serverMetadata().grant_types_supported).toContain(DEVICE_GRANT);
    const started = await oidc.initiateDeviceAuthorization(config, { scope: "openid profile email offline_access" });
    const polling = oidc.pollDeviceAuthorizationGrant(config, started);
    const userId = await userApproves(started.user_code, "tv-basic@example.com");
    const tokens = await polling;
    expect(tokens.claims()).toMatchObject({ sub: userId, aud: made.client_id, iss: `${origin}/api/auth` });
    expect(tokens.refresh_token).toEqual(expect.any(String));
    const info = await oidc.fetchUserInfo(config, tokens.access_token, userId);
    expect(info).toMatchObject({ sub: userId, email: "tv-basic@example.com" });
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.access_token).not.toBe(tokens.access_token);
  });

  it("private_key_jwt client: assertions at the device authorization endpoint and the token endpoint", async () => {
    const { privateKey, publicKey } = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])) as CryptoKeyPair;
    const jwk = { ...(await crypto.subtle.exportKey("jwk", publicKey)), kid: "tv-key", alg: "ES256", use: "sig" };
    const made = await deviceClient({ auth }, { token_endpoint_auth_method: "private_key_jwt", jwks: { keys: [jwk] } });
    const config = await oidc.discovery(new URL(`${origin}/api/auth`), made.client_id, undefined, oidc.PrivateKeyJwt({ key: privateKey, kid: "tv-key" }), {
      execute: [oidc.allowInsecureRequests],
    });
    const started = await oidc.initiateDeviceAuthorization(config, { scope: "openid" });
    const polling = oidc.pollDeviceAuthorizationGrant(config, started);
    const userId = await userApproves(started.user_code, "tv-jwt@example.com");
    expect((await polling).claims()?.sub).toBe(userId);
  });

  it("DPoP (RFC 9449): a poll with a proof gets DPoP-bound tokens; a client registered for DPoP must send one", async () => {
    const made = await deviceClient({ auth }, { dpop_bound_access_tokens: true });
    const config = await oidc.discovery(new URL(`${origin}/api/auth`), made.client_id, undefined, oidc.None(), { execute: [oidc.allowInsecureRequests] });
    const started = await oidc.initiateDeviceAuthorization(config, { scope: "openid" });
    const bare = await fetch(`${origin}/api/auth/oauth2/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: DEVICE_GRANT, device_code: started.device_code, client_id: made.client_id }),
    });
    expect(await bare.json()).toMatchObject({ error: "invalid_dpop_proof" });
    const DPoP = oidc.getDPoPHandle(config, await oidc.randomDPoPKeyPair("ES256"));
    const polling = oidc.pollDeviceAuthorizationGrant(config, started, undefined, { DPoP });
    await userApproves(started.user_code, "tv-dpop@example.com");
    const tokens = await polling;
    expect(tokens.token_type).toBe("dpop");
  });

  it("public client: approval yields tokens; a denial ends polling with access_denied", async () => {
    const made = await deviceClient({ auth });
    const config = await oidc.discovery(new URL(`${origin}/api/auth`), made.client_id, undefined, oidc.None(), { execute: [oidc.allowInsecureRequests] });
    const started = await oidc.initiateDeviceAuthorization(config, { scope: "openid profile" });
    const polling = oidc.pollDeviceAuthorizationGrant(config, started);
    const userId = await userApproves(started.user_code, "tv-public@example.com");
    const tokens = await polling;
    expect(tokens.claims()?.sub).toBe(userId);
    expect(tokens.refresh_token).toBeUndefined();

    const again = await oidc.initiateDeviceAuthorization(config, { scope: "profile" });
    const refused = oidc.pollDeviceAuthorizationGrant(config, again);
    await userApproves(again.user_code, "tv-denier@example.com", "deny");
    await expect(refused).rejects.toMatchObject({ error: "access_denied" });
  });
});
