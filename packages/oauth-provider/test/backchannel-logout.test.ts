import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { client, type TestAuth, type TestClient } from "@latchkey/test-support";
import { createLocalJWKSet, jwtVerify, type JWTPayload } from "jose";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { BACKCHANNEL_LOGOUT_EVENT, settleBackchannelLogouts } from "../src/index.ts";
import { adminClient, api, authorizeCode, formPost, pkcePair, providerInstance, REDIRECT } from "./instance.ts";

// OIDC Back-Channel Logout 1.0: a relying party's listener on 127.0.0.1 receives the logout
// token and verifies it against the provider's JWKS with jose, as an RP would.
interface Received {
  at: number;
  contentType: string | undefined;
  token: string;
}
let server: Server;
let listenerURL: string;
let received: Received[] = [];
/** Status codes the listener answers, in order (then 200); and a delay before answering. */
let script: { statuses: number[]; delayMs: number } = { statuses: [], delayMs: 0 };

let t: TestAuth;
let users = 0;
beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      received.push({ at: Date.now(), contentType: req.headers["content-type"], token: new URLSearchParams(body).get("logout_token") ?? "" });
      const status = script.statuses.shift() ?? 200;
      setTimeout(() => res.writeHead(status).end(), script.delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  listenerURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/backchannel`;
  t = await providerInstance({ backchannelLogout: { allowedHosts: ["127.0.0.1"], timeout: 1000, attempts: 3 } });
});
afterAll(async () => {
  await settleBackchannelLogouts();
  await t.close();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  received = [];
  script = { statuses: [], delayMs: 0 };
});

/** A signed-in browser whose session a back-channel client holds tokens for. */
async function session(clientExtra: Record<string, unknown> = {}) {
  const browser: TestClient = client(t.auth, { origin: true });
  const signUp = await browser.post("/sign-up/email", { email: `b${++users}@example.com`, password: "correct horse battery", name: "B" });
  expect(signUp.status).toBe(200);
  const userId = (signUp.json as { user: { id: string } }).user.id;
  const c = await adminClient(t, { backchannel_logout_uri: listenerURL, backchannel_logout_session_required: true, enable_end_session: true, ...clientExtra });
  const basic = { id: c.client_id, secret: c.client_secret! };
  const { verifier, challenge } = await pkcePair();
  const code = await authorizeCode(browser, c.client_id, challenge, { scope: "openid profile" });
  const tokens = await formPost(browser, "/oauth2/token", { grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: REDIRECT }, basic);
  expect(tokens.status).toBe(200);
  const { id_token, access_token } = tokens.json as { id_token: string; access_token: string };
  const sid = (JSON.parse(Buffer.from(id_token.split(".")[1]!, "base64url").toString()) as { sid: string }).sid;
  return { browser, userId, c, basic, idToken: id_token, accessToken: access_token, sid };
}

/** The logout token verified as an RP does (Back-Channel Logout §2.6). */
async function verified(token: string, audience: string): Promise<JWTPayload> {
  const jwks = (await client(t.auth).get("/jwks")).json as { keys: never[] };
  const { payload, protectedHeader } = await jwtVerify(token, createLocalJWKSet(jwks), {
    issuer: "http://localhost:3000/api/auth",
    audience,
    typ: "logout+jwt",
    maxTokenAge: 130,
  });
  expect(protectedHeader.alg).not.toBe("none");
  return payload;
}

async function until(check: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error("timed out waiting for the listener");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("back-channel logout delivery", () => {
  it("sign-out POSTs a signed logout token (events, sid, sub, jti, no nonce) and revokes the session's tokens", async () => {
    const s = await session();
    expect(s.sid).toBeTruthy();
    expect((await s.browser.post("/sign-out", {})).status).toBe(200);
    await until(() => received.length === 1);
    expect(received[0]!.contentType).toBe("application/x-www-form-urlencoded");
    const claims = await verified(received[0]!.token, s.c.client_id);
    expect(claims.events).toEqual({ [BACKCHANNEL_LOGOUT_EVENT]: {} });
    expect([claims.sid, claims.sub]).toEqual([s.sid, s.userId]);
    expect(claims.jti).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(claims).not.toHaveProperty("nonce");
    expect(claims.exp! - claims.iat!).toBe(120);
    const introspection = await formPost(client(t.auth), "/oauth2/introspect", { token: s.accessToken }, s.basic);
    expect(introspection.json).toEqual({ active: false });
  });

  it("never holds the user's request: sign-out answers while the RP is still slow", async () => {
    const s = await session();
    script.delayMs = 800;
    const started = Date.now();
    expect((await s.browser.post("/sign-out", {})).status).toBe(200);
    expect(Date.now() - started).toBeLessThan(600);
    await until(() => received.length === 1);
    await settleBackchannelLogouts();
  });

  it("retries 5xx answers with the same token, then stops at 200", async () => {
    const s = await session();
    script.statuses = [503, 500];
    expect((await s.browser.post("/sign-out", {})).status).toBe(200);
    await settleBackchannelLogouts();
    expect(received).toHaveLength(3);
    expect(new Set(received.map((r) => r.token)).size).toBe(1);
    // A 4xx is the RP's refusal: not repeated.
    const again = await session();
    received = [];
    script.statuses = [400];
    await again.browser.post("/sign-out", {});
    await settleBackchannelLogouts();
    expect(received).toHaveLength(1);
  });

  it("RP-initiated logout and revoke-sessions notify too; a disabled client is not notified", async () => {
    const s = await session();
    const res = await formPost(client(t.auth), "/oauth2/end-session", { id_token_hint: s.idToken });
    expect(res.status).toBe(200);
    await until(() => received.length === 1);
    expect((await verified(received[0]!.token, s.c.client_id)).sid).toBe(s.sid);

    const other = await session();
    received = [];
    expect((await other.browser.post("/revoke-sessions", {})).status).toBe(200);
    await until(() => received.length === 1);
    expect((await verified(received[0]!.token, other.c.client_id)).sid).toBe(other.sid);

    const disabled = await session();
    await t.auth.$context.adapter.update({ model: "oauthClient", where: [{ field: "clientId", value: disabled.c.client_id }], update: { disabled: true } });
    received = [];
    await disabled.browser.post("/sign-out", {});
    await settleBackchannelLogouts();
    expect(received).toHaveLength(0);
  });

  it("offline_access refresh tokens outlive the session (Back-Channel Logout §2.7); others are revoked", async () => {
    const browser = client(t.auth, { origin: true });
    await browser.post("/sign-up/email", { email: `o${++users}@example.com`, password: "correct horse battery", name: "O" });
    const c = await adminClient(t, { backchannel_logout_uri: listenerURL });
    const basic = { id: c.client_id, secret: c.client_secret! };
    const { verifier, challenge } = await pkcePair();
    const code = await authorizeCode(browser, c.client_id, challenge);
    const tokens = (await formPost(browser, "/oauth2/token", { grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: REDIRECT }, basic)).json as { refresh_token: string; access_token: string };
    await browser.post("/sign-out", {});
    await settleBackchannelLogouts();
    expect((await formPost(client(t.auth), "/oauth2/introspect", { token: tokens.access_token }, basic)).json).toEqual({ active: false });
    const refreshed = await formPost(client(t.auth), "/oauth2/token", { grant_type: "refresh_token", refresh_token: tokens.refresh_token }, basic);
    expect(refreshed.status).toBe(200);
  });
});

describe("backchannel_logout_uri at registration", () => {
  it("https to a public host is stored and answered back", async () => {
    const c = await adminClient(t, { backchannel_logout_uri: "https://rp.example.com/logout", backchannel_logout_session_required: true });
    expect(c).toMatchObject({ backchannel_logout_uri: "https://rp.example.com/logout", backchannel_logout_session_required: true });
  });

  it("private, loopback, http, fragment and credential URIs are invalid_client_metadata", async () => {
    const strict = await providerInstance();
    try {
      const browser = client(strict.auth);
      await browser.post("/sign-up/email", { email: "reg@example.com", password: "correct horse battery", name: "R" });
      const cases: Array<[string, string]> = [
        ["https://10.1.2.3/logout", "backchannel_logout_uri must not point to a private or reserved address"],
        ["https://127.0.0.1/logout", "backchannel_logout_uri must not point to a private or reserved address"],
        ["https://169.254.169.254/latest", "backchannel_logout_uri must not point to a private or reserved address"],
        ["https://[::1]/logout", "backchannel_logout_uri must not point to a private or reserved address"],
        ["https://localhost/logout", "backchannel_logout_uri must not point to a private or reserved address"],
        [listenerURL, "backchannel_logout_uri must use https"],
        ["https://rp.example.com/logout#x", "backchannel_logout_uri must not include a fragment component"],
        ["https://u:p@rp.example.com/logout", "backchannel_logout_uri must not contain credentials"],
      ];
      for (const [uri, description] of cases) {
        const res = await browser.post("/oauth2/register", { redirect_uris: [REDIRECT], backchannel_logout_uri: uri });
        expect([res.status, res.json], uri).toEqual([400, { error: "invalid_client_metadata", error_description: description }]);
      }
      expect(await strict.auth.$context.adapter.count({ model: "oauthClient" })).toBe(0);
    } finally {
      await strict.close();
    }
  });

  it("a stored private URI (written before, or by hand) is never called", async () => {
    const strict = await providerInstance();
    try {
      const browser = client(strict.auth, { origin: true });
      await browser.post("/sign-up/email", { email: "p@example.com", password: "correct horse battery", name: "P" });
      const c = (await api(strict).adminCreateOAuthClient({ body: { redirect_uris: [REDIRECT], skip_consent: true } })) as unknown as { client_id: string; client_secret: string };
      await strict.auth.$context.adapter.update({ model: "oauthClient", where: [{ field: "clientId", value: c.client_id }], update: { backchannelLogoutUri: listenerURL } });
      const { verifier, challenge } = await pkcePair();
      const code = await authorizeCode(browser, c.client_id, challenge);
      expect((await formPost(browser, "/oauth2/token", { grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: REDIRECT }, { id: c.client_id, secret: c.client_secret })).status).toBe(200);
      await browser.post("/sign-out", {});
      await settleBackchannelLogouts();
      expect(received).toHaveLength(0);
    } finally {
      await strict.close();
    }
  });
});

describe.each(["postgres", "mysql"] as const)("back-channel logout on %s", (kind) => {
  it("sign-out revokes the session's tokens and delivers one verified logout token", async () => {
    const other = await providerInstance({ backchannelLogout: { allowedHosts: ["127.0.0.1"], timeout: 1000 } }, kind);
    try {
      const browser = client(other.auth, { origin: true });
      await browser.post("/sign-up/email", { email: `${kind}@example.com`, password: "correct horse battery", name: "K" });
      const c = (await api(other).adminCreateOAuthClient({
        body: { redirect_uris: [REDIRECT], skip_consent: true, backchannel_logout_uri: listenerURL, grant_types: ["authorization_code", "refresh_token"] },
      })) as unknown as { client_id: string; client_secret: string };
      const basic = { id: c.client_id, secret: c.client_secret };
      const { verifier, challenge } = await pkcePair();
      const code = await authorizeCode(browser, c.client_id, challenge, { scope: "openid" });
      const tokens = (await formPost(browser, "/oauth2/token", { grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: REDIRECT }, basic)).json as { access_token: string; id_token: string };
      await browser.post("/sign-out", {});
      await settleBackchannelLogouts();
      expect(received).toHaveLength(1);
      const jwks = (await client(other.auth).get("/jwks")).json as { keys: never[] };
      const { payload } = await jwtVerify(received[0]!.token, createLocalJWKSet(jwks), { audience: c.client_id, typ: "logout+jwt" });
      expect(payload.sid).toBe(JSON.parse(Buffer.from(tokens.id_token.split(".")[1]!, "base64url").toString()).sid);
      expect((await formPost(client(other.auth), "/oauth2/introspect", { token: tokens.access_token }, basic)).json).toEqual({ active: false });
    } finally {
      await other.close();
    }
  });
});
