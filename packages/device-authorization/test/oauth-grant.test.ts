import type { TestAuth } from "@latchkey/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { forgetLastPoll, signedIn } from "./instance.ts";
import { DEVICE_GRANT, deviceClient, form, oauthDeviceInstance } from "./oauth-instance.ts";

/** The payload of a JWT (not verified: openid-client verifies ID tokens in the HTTP test). */
const decodeJwt = (jwt: string): Record<string, unknown> => JSON.parse(Buffer.from(jwt.split(".")[1]!, "base64url").toString()) as Record<string, unknown>;

type Codes = { device_code: string; user_code: string; interval: number };

describe("oauthDeviceAuthorization(): the device grant for OAuth clients", () => {
  let t: TestAuth;
  let publicId: string;
  let confidential: { id: string; secret: string };
  beforeAll(async () => {
    t = await oauthDeviceInstance();
    publicId = (await deviceClient(t, { scope: "openid profile offline_access tv:watch" })).client_id;
    const made = await deviceClient(t, { token_endpoint_auth_method: "client_secret_basic" });
    confidential = { id: made.client_id, secret: made.client_secret! };
  });
  afterAll(() => t.close());

  const start = async (fields: Record<string, string>, basic?: { id: string; secret: string }): Promise<Codes> => {
    const answer = await form(t, "/device/code", fields, basic);
    expect(answer.status, answer.text).toBe(200);
    return answer.json as unknown as Codes;
  };
  const tokenPoll = (fields: Record<string, string>, basic?: { id: string; secret: string }) =>
    form(t, "/oauth2/token", { grant_type: DEVICE_GRANT, ...fields }, basic);
  const approve = async (userCode: string, name: string) => {
    const { browser, userId } = await signedIn(t, name);
    const seen = await browser.get<Record<string, unknown>>(`/device?user_code=${userCode}`);
    expect((await browser.post("/device/approve", { userCode })).status).toBe(200);
    return { userId, seen: seen.json! };
  };

  it("public client: pending, approval showing client and scopes, then one token set with an ID token", async () => {
    const codes = await start({ client_id: publicId, scope: "openid  profile offline_access" });
    const pending = await tokenPoll({ device_code: codes.device_code, client_id: publicId });
    expect(pending.status).toBe(400);
    expect(pending.json).toMatchObject({ error: "authorization_pending" });
    expect(pending.headers.get("cache-control")).toBe("no-store");
    const { userId, seen } = await approve(codes.user_code, "tv-owner");
    expect(seen).toMatchObject({ status: "pending", client_id: publicId, scope: "openid profile offline_access" });
    await forgetLastPoll(t, codes.device_code);
    const tokens = await tokenPoll({ device_code: codes.device_code, client_id: publicId });
    expect(tokens.status, tokens.text).toBe(200);
    expect(tokens.json).toMatchObject({ token_type: "Bearer", scope: "openid profile offline_access" });
    expect(typeof tokens.json!.refresh_token).toBe("string");
    const claims = decodeJwt(tokens.json!.id_token as string);
    expect(claims).toMatchObject({ sub: userId, aud: publicId });
    // The code is spent: the row is gone and another poll is invalid_grant.
    expect(await t.auth.$context.adapter.count({ model: "deviceCode", where: [{ field: "deviceCode", value: codes.device_code }] })).toBe(0);
    expect((await tokenPoll({ device_code: codes.device_code, client_id: publicId })).json).toMatchObject({ error: "invalid_grant" });
    // The access token is oauth-provider's: introspectable, userinfo answers.
    const info = await t.auth.handler(
      new Request(`${t.auth.$context.baseURL}/oauth2/userinfo`, { headers: { authorization: `Bearer ${String(tokens.json!.access_token)}` } }),
    );
    expect(((await info.json()) as { sub: string }).sub).toBe(userId);
  });

  it("confidential client with Basic; no offline_access, no refresh token; no openid, no ID token", async () => {
    const codes = await start({ scope: "profile" }, confidential);
    await approve(codes.user_code, "basic-owner");
    const tokens = await tokenPoll({ device_code: codes.device_code }, confidential);
    expect(tokens.status, tokens.text).toBe(200);
    expect(tokens.json!.refresh_token).toBeUndefined();
    expect(tokens.json!.id_token).toBeUndefined();
  });

  it("client authentication is the registered one, checked before the poll is recorded", async () => {
    const codes = await start({ scope: "profile" }, confidential);
    const wrong = await tokenPoll({ device_code: codes.device_code }, { id: confidential.id, secret: "not-the-secret" });
    expect(wrong.status).toBe(401);
    expect(wrong.json).toMatchObject({ error: "invalid_client" });
    expect((await tokenPoll({ device_code: codes.device_code, client_id: confidential.id })).json).toMatchObject({ error: "invalid_client" });
    // Another client (even a valid one) cannot redeem it.
    expect((await tokenPoll({ device_code: codes.device_code, client_id: publicId })).json).toMatchObject({ error: "invalid_grant", error_description: "Client ID mismatch" });
    const row = await t.auth.$context.adapter.findOne<{ lastPolledAt: Date | null }>({ model: "deviceCode", where: [{ field: "deviceCode", value: codes.device_code }] });
    expect(row?.lastPolledAt ?? null).toBeNull();
    expect((await form(t, "/device/code", { client_id: confidential.id })).json).toMatchObject({ error: "invalid_client" });
  });

  it("slow_down, access_denied and expired_token as RFC 8628 §3.5", async () => {
    const codes = await start({ client_id: publicId });
    expect((await tokenPoll({ device_code: codes.device_code, client_id: publicId })).json).toMatchObject({ error: "authorization_pending" });
    expect((await tokenPoll({ device_code: codes.device_code, client_id: publicId })).json).toMatchObject({ error: "slow_down" });
    const { browser } = await signedIn(t, "denier");
    await browser.get(`/device?user_code=${codes.user_code}`);
    expect((await browser.post("/device/deny", { userCode: codes.user_code })).status).toBe(200);
    await forgetLastPoll(t, codes.device_code);
    expect((await tokenPoll({ device_code: codes.device_code, client_id: publicId })).json).toMatchObject({ error: "access_denied" });
    const late = await start({ client_id: publicId });
    await t.auth.$context.adapter.updateMany({ model: "deviceCode", where: [{ field: "deviceCode", value: late.device_code }], update: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await tokenPoll({ device_code: late.device_code, client_id: publicId })).json).toMatchObject({ error: "expired_token" });
  });

  it("an OAuth client's code is not a session at /device/token; a first-party code is not a token set", async () => {
    const codes = await start({ client_id: publicId });
    await approve(codes.user_code, "crossing");
    const session = await form(t, "/device/token", { grant_type: DEVICE_GRANT, device_code: codes.device_code, client_id: publicId });
    expect(session.json).toMatchObject({
      error: "invalid_grant",
      error_description: "This device code must be exchanged at the OAuth token endpoint (/oauth2/token).",
    });
    // An unregistered client_id without credentials gets a first-party code, as in the reference.
    const firstParty = await start({ client_id: "console-app" });
    await approve(firstParty.user_code, "first-party");
    expect((await tokenPoll({ device_code: firstParty.device_code, client_id: publicId })).json).toMatchObject({ error: "invalid_grant", error_description: "invalid device code" });
    const own = await form(t, "/device/token", { grant_type: DEVICE_GRANT, device_code: firstParty.device_code, client_id: "console-app" });
    expect(own.status, own.text).toBe(200);
    // The OAuth code is still there for its client.
    await forgetLastPoll(t, codes.device_code);
    expect((await tokenPoll({ device_code: codes.device_code, client_id: publicId })).status).toBe(200);
  });

  it("refuses a client without the grant, scopes it may not ask for, and resource indicators", async () => {
    const webApp = await deviceClient(t, { grant_types: ["authorization_code"], redirect_uris: ["https://app.example/cb"] });
    expect((await form(t, "/device/code", { client_id: webApp.client_id })).json).toMatchObject({ error: "unauthorized_client" });
    expect((await form(t, "/device/code", { client_id: publicId, scope: "email" })).json).toMatchObject({ error: "invalid_scope" });
    expect((await form(t, "/device/code", { scope: "admin:all" }, confidential)).json).toMatchObject({ error: "invalid_scope" });
    expect((await form(t, "/device/code", { client_id: publicId, resource: "https://api.example/" })).json).toMatchObject({ error: "invalid_target" });
    expect((await form(t, "/device/code", { client_id: publicId }, confidential)).json).toMatchObject({ error: "invalid_client", error_description: "Client ID mismatch" });
    expect(await t.auth.$context.adapter.count({ model: "deviceCode", where: [{ field: "oauthClientId", value: webApp.client_id }] })).toBe(0);
  });

  it("discovery lists the grant and the device authorization endpoint", async () => {
    const base = t.auth.$context.baseURL;
    const doc = (await (await t.auth.handler(new Request(`${base}/.well-known/openid-configuration`))).json()) as Record<string, unknown>;
    expect(doc.device_authorization_endpoint).toBe(`${base}/device/code`);
    expect(doc.grant_types_supported).toContain(DEVICE_GRANT);
  });
});

describe("oauthDeviceAuthorization(): installation", () => {
  it("requires oauthProvider(), and cannot sit beside deviceAuthorization()", async () => {
    const { testAuth } = await import("@latchkey/test-support");
    const { deviceAuthorization } = await import("../src/index.ts");
    const { oauthDeviceAuthorization } = await import("../src/oauth.ts");
    const { jwt } = await import("@latchkey/jwt");
    const { oauthProvider } = await import("@latchkey/oauth-provider");
    await expect(testAuth({ plugins: [oauthDeviceAuthorization()] }, { db: "sqlite" })).rejects.toThrow(/oauth-provider/);
    await expect(
      testAuth({ plugins: [jwt(), oauthProvider({ loginPage: "/login", consentPage: "/consent" }), oauthDeviceAuthorization(), deviceAuthorization()] }, { db: "sqlite" }),
    ).rejects.toThrow(TypeError);
  });
});
