import { jwt } from "@latchkey/jwt";
import { oauthProvider, type OAuthProviderPlugin } from "@latchkey/oauth-provider";
import { client, testAuth, type TestAuth, type TestClient } from "@latchkey/test-support";
import type { Auth, LatchkeyOptions } from "@latchkey/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { forgetLastPoll, signedIn } from "./instance.ts";
import { DEVICE_GRANT, deviceClient } from "./oauth-instance.ts";
import { oauthDeviceAuthorization } from "../src/oauth.ts";

/** A JWT's payload (not verified here: the HTTP test verifies signatures with openid-client). */
const decodeJwt = (jwt: string): Record<string, unknown> => JSON.parse(Buffer.from(jwt.split(".")[1]!, "base64url").toString()) as Record<string, unknown>;

const API = "https://api.example.com";
const REPORTS = "https://reports.example.com/v1";
const NARROW = "https://narrow.example.com";
type ProviderAPI = Auth<LatchkeyOptions & { plugins: [OAuthProviderPlugin] }>["api"];
type Codes = { device_code: string; user_code: string };

/** RFC 8707 on the device grant: resources bound at `/device/code`, narrowed (never widened) at the poll, the audience of the tokens. */
describe("oauthDeviceAuthorization(): resource indicators (RFC 8707)", () => {
  let t: TestAuth;
  let admin: TestClient;
  let publicId: string;
  beforeAll(async () => {
    t = await testAuth(
      {
        emailAndPassword: { enabled: true },
        rateLimit: { enabled: false },
        plugins: [
          jwt(),
          oauthProvider({
            loginPage: "/login",
            consentPage: "/consent",
            scopes: ["openid", "profile", "offline_access", "tv:watch"],
            resources: [API, { identifier: REPORTS, accessTokenTtl: 120 }, { identifier: NARROW, allowedScopes: ["tv:watch"] }, "https://unlinked.example.com"],
          }),
          oauthDeviceAuthorization({ interval: "1s" }),
        ],
      },
      { db: "sqlite" },
    );
    admin = (await signedIn(t, "resource-admin")).browser;
    publicId = (await deviceClient(t, { scope: "openid profile offline_access tv:watch" })).client_id;
    const api = t.auth.api as unknown as ProviderAPI;
    for (const identifier of [API, REPORTS, NARROW]) {
      await api.adminLinkClientResource({ params: { identifier, client_id: publicId }, headers: new Headers({ cookie: admin.jar.header()! }) });
    }
  });
  afterAll(() => t.close());

  const post = (path: string, fields: Array<[string, string]>) =>
    client(t.auth).request<Record<string, unknown>>(path, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields).toString(),
    });
  const rowOf = (deviceCode: string) =>
    t.auth.$context.adapter.findOne<{ resources: string[] | null; lastPolledAt: Date | null }>({ model: "deviceCode", where: [{ field: "deviceCode", value: deviceCode }] });
  const count = () => t.auth.$context.adapter.count({ model: "deviceCode" });
  const approved = async (fields: Array<[string, string]>, name: string) => {
    const started = await post("/device/code", [["client_id", publicId], ...fields]);
    expect(started.status, started.text).toBe(200);
    const codes = started.json as unknown as Codes;
    const { browser, userId } = await signedIn(t, name);
    const seen = await browser.get<Record<string, unknown>>(`/device?user_code=${codes.user_code}`);
    expect((await browser.post("/device/approve", { userCode: codes.user_code })).status).toBe(200);
    return { codes, seen: seen.json!, userId };
  };

  it("binds repeated resources to the code, shows them to the approver, and issues a JWT whose audience they are", async () => {
    const { codes, seen, userId } = await approved([["scope", "openid tv:watch"], ["resource", API], ["resource", REPORTS]], "two-resources");
    expect(seen).toMatchObject({ client_id: publicId, resource: [API, REPORTS] });
    expect((await rowOf(codes.device_code))?.resources).toEqual([API, REPORTS]);
    const tokens = await post("/oauth2/token", [["grant_type", DEVICE_GRANT], ["device_code", codes.device_code], ["client_id", publicId]]);
    expect(tokens.status, tokens.text).toBe(200);
    const access = decodeJwt(tokens.json!.access_token as string);
    expect(access.aud).toEqual([API, REPORTS, `${t.auth.$context.baseURL}/oauth2/userinfo`]);
    expect(access.sub).toBe(userId);
    // The smallest accessTokenTtl of the resources bounds the token.
    expect(tokens.json!.expires_in).toBe(120);
  });

  it("a poll may narrow the bound resources; one adding a resource is invalid_target and spends nothing", async () => {
    const { codes } = await approved([["scope", "tv:watch"], ["resource", API], ["resource", REPORTS]], "narrowing");
    const widened = await post("/oauth2/token", [["grant_type", DEVICE_GRANT], ["device_code", codes.device_code], ["client_id", publicId], ["resource", NARROW]]);
    expect(widened.status).toBe(400);
    expect(widened.json).toEqual({ error: "invalid_target", error_description: "Requested resource was not authorized by the user" });
    expect(widened.headers.get("cache-control")).toBe("no-store");
    expect((await rowOf(codes.device_code))?.lastPolledAt ?? null).toBeNull();
    const narrowed = await post("/oauth2/token", [["grant_type", DEVICE_GRANT], ["device_code", codes.device_code], ["client_id", publicId], ["resource", REPORTS]]);
    expect(narrowed.status, narrowed.text).toBe(200);
    expect(decodeJwt(narrowed.json!.access_token as string).aud).toBe(REPORTS);
  });

  it("a code approved without resources gains none at the poll; without resources the token stays opaque", async () => {
    const { codes } = await approved([["scope", "tv:watch"]], "no-resources");
    expect((await rowOf(codes.device_code))?.resources ?? null).toBeNull();
    const widened = await post("/oauth2/token", [["grant_type", DEVICE_GRANT], ["device_code", codes.device_code], ["client_id", publicId], ["resource", API]]);
    expect(widened.json).toMatchObject({ error: "invalid_target" });
    await forgetLastPoll(t, codes.device_code);
    const tokens = await post("/oauth2/token", [["grant_type", DEVICE_GRANT], ["device_code", codes.device_code], ["client_id", publicId]]);
    expect(tokens.status, tokens.text).toBe(200);
    expect((tokens.json!.access_token as string).split(".")).toHaveLength(1);
  });

  it("a resource's allowedScopes narrow the scopes; a resource disabled after approval stops the poll, code kept", async () => {
    const { codes } = await approved([["scope", "profile tv:watch"], ["resource", NARROW]], "allowed-scopes");
    const api = t.auth.api as unknown as ProviderAPI;
    const headers = new Headers({ cookie: admin.jar.header()! });
    await api.adminUpdateOAuthResource({ params: { identifier: NARROW }, body: { disabled: true }, headers });
    const refused = await post("/oauth2/token", [["grant_type", DEVICE_GRANT], ["device_code", codes.device_code], ["client_id", publicId]]);
    expect(refused.json).toMatchObject({ error: "invalid_target" });
    expect(await rowOf(codes.device_code)).not.toBeNull();
    await api.adminUpdateOAuthResource({ params: { identifier: NARROW }, body: { disabled: false }, headers });
    await forgetLastPoll(t, codes.device_code);
    const tokens = await post("/oauth2/token", [["grant_type", DEVICE_GRANT], ["device_code", codes.device_code], ["client_id", publicId]]);
    expect(tokens.status, tokens.text).toBe(200);
    expect(tokens.json!.scope).toBe("tv:watch");
  });

  it("bad or unauthorized resources at /device/code are 400 invalid_target / invalid_scope with nothing written", async () => {
    const before = await count();
    const cases: Array<[Array<[string, string]>, string, string?]> = [
      [[["resource", "not a uri"]], "invalid_target", "Invalid resource indicator"],
      [[["resource", `${API}#frag`]], "invalid_target", "Invalid resource indicator"],
      [[["resource", API], ["resource", ""]], "invalid_target", "Invalid resource indicator"],
      [[["resource", "https://unknown.example.com"]], "invalid_target"],
      [[["resource", "https://unlinked.example.com"]], "invalid_target"],
      [[["scope", "profile"], ["resource", NARROW]], "invalid_scope"],
    ];
    for (const [fields, error, description] of cases) {
      const answer = await post("/device/code", [["client_id", publicId], ...fields]);
      expect(answer.status, JSON.stringify(fields)).toBe(400);
      expect(answer.json).toMatchObject({ error, ...(description ? { error_description: description } : {}) });
    }
    const json = await client(t.auth).post<Record<string, unknown>>("/device/code", { client_id: publicId, resource: [] });
    expect(json.json).toMatchObject({ error: "invalid_target", error_description: "Invalid resource indicator" });
    expect(await count()).toBe(before);
    // JSON bodies may carry the list too.
    const listed = await client(t.auth).post<Record<string, unknown>>("/device/code", { client_id: publicId, resource: [API, REPORTS] });
    expect(listed.status, listed.text).toBe(200);
    expect((await rowOf(listed.json!.device_code as string))?.resources).toEqual([API, REPORTS]);
  });
});

describe("oauthDeviceAuthorization(): auth_time", () => {
  let t: TestAuth;
  let publicId: string;
  beforeAll(async () => {
    t = await testAuth(
      { emailAndPassword: { enabled: true }, rateLimit: { enabled: false }, plugins: [jwt(), oauthProvider({ loginPage: "/login", consentPage: "/consent" }), oauthDeviceAuthorization({ interval: "1s" })] },
      { db: "sqlite" },
    );
    publicId = (await deviceClient(t, { scope: "openid profile" })).client_id;
  });
  afterAll(() => t.close());

  const recorded = () => t.auth.$context.adapter.count({ model: "verification", where: [{ field: "identifier", value: "device-auth-time:", operator: "starts_with" }] });

  it("the ID token carries the approving session's sign-in time, and the record is taken once", async () => {
    const started = await client(t.auth).post<Codes>("/device/code", { client_id: publicId, scope: "openid" });
    const codes = started.json!;
    const { browser, userId } = await signedIn(t, "auth-time");
    await browser.get(`/device?user_code=${codes.user_code}`);
    expect((await browser.post("/device/approve", { userCode: codes.user_code })).status).toBe(200);
    expect(await recorded()).toBe(1);
    const session = await t.auth.$context.adapter.findOne<{ createdAt: Date }>({ model: "session", where: [{ field: "userId", value: userId }] });
    const tokens = await client(t.auth).request<Record<string, unknown>>("/oauth2/token", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: DEVICE_GRANT, device_code: codes.device_code, client_id: publicId }).toString(),
    });
    expect(tokens.status, tokens.text).toBe(200);
    const claims = decodeJwt(tokens.json!.id_token as string);
    expect(claims.auth_time).toBe(Math.floor(new Date(session!.createdAt).getTime() / 1000));
    expect(await recorded()).toBe(0);
  });
});
