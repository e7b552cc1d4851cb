import { oauthDeviceAuthorization as referenceOAuthDevice, oauthProvider as referenceOAuthProvider } from "@better-auth/oauth-provider";
import { oauthDeviceAuthorization } from "@latchkey/device-authorization/oauth";
import { jwt } from "@latchkey/jwt";
import { oauthProvider, type OAuthOptions } from "@latchkey/oauth-provider";
import { jwt as referenceJwt } from "better-auth/plugins";
import { afterEach, describe, expect, it } from "vitest";
import { signUp } from "./support/flows.ts";
import { createPair, jsonPost, url, type Handler, type Pair } from "./support/instances.ts";
import { answer, form, ISSUER, register, type Registered } from "./support/oauth-provider.ts";

/**
 * `oauthDeviceAuthorization()` (Latchkey: `@latchkey/device-authorization/oauth`) beside the
 * reference's (`@better-auth/oauth-provider` 1.7.5), both with `oauthProvider()` on one
 * database: the device grant for OAuth clients on the wire, and DIVERGENCES.md row 134.
 */
const GRANT = "urn:ietf:params:oauth:grant-type:device_code";
const OPTIONS: OAuthOptions = { loginPage: "/login", consentPage: "/consent", allowDynamicClientRegistration: true, scopes: ["openid", "profile", "email", "offline_access"] };

let current: Pair | undefined;
afterEach(() => {
  current?.close();
  current = undefined;
});
async function pair(extra: Partial<OAuthOptions> = {}): Promise<Pair> {
  const options = { ...OPTIONS, ...extra };
  return (current = await createPair({
    reference: { plugins: [referenceJwt(), referenceOAuthProvider(options as Parameters<typeof referenceOAuthProvider>[0]), referenceOAuthDevice({ interval: "1s" })] },
    latchkey: { plugins: [jwt(), oauthProvider(options), oauthDeviceAuthorization({ interval: "1s" })] },
  }));
}

/** A form POST whose members may repeat (`resource`), authenticated with Basic as `c`. */
function repeatedForm(path: string, fields: Array<[string, string]>, c: Registered): Request {
  const request = form(path, {}, c);
  return new Request(request, { body: new URLSearchParams(fields).toString() });
}

/** A JWT's payload (the tests compare claims, not signatures). */
const claimsOf = (jwt: string): Record<string, unknown> => JSON.parse(Buffer.from(jwt.split(".")[1]!, "base64url").toString()) as Record<string, unknown>;

/** A device code from `side` for `c`, approved by the signed-in `cookie`. */
async function approvedCode(side: Handler, c: Registered, cookie: string, scope: string): Promise<string> {
  const issued = await side(form("/device/code", { scope }, c));
  expect(issued.status, await issued.clone().text()).toBe(200);
  const codes = (await issued.json()) as { device_code: string; user_code: string };
  const seen = await side(new Request(url(`/device?user_code=${codes.user_code}`), { headers: { cookie } }));
  expect(await seen.json()).toMatchObject({ status: "pending", client_id: c.client_id, scope });
  expect((await side(jsonPost("/device/approve", { userCode: codes.user_code }, { cookie }))).status).toBe(200);
  return codes.device_code;
}

describe("oauthDeviceAuthorization(): wire and storage beside the reference", () => {
  it("discovery, the token set, the refusals at /device/token and of another client, on codes either side issued", async () => {
    const p = await pair();
    const { cookie } = await signUp(p.reference, { email: "tv@example.com", password: "correct horse battery", name: "TV" });
    const c = await register(p.reference, cookie, { grant_types: [GRANT, "refresh_token"], scope: "openid profile offline_access" });
    const other = await register(p.reference, cookie, { grant_types: [GRANT] });
    const results: unknown[] = [];
    for (const [issuer, redeemer] of [[p.reference, p.latchkey], [p.latchkey, p.reference], [p.latchkey, p.latchkey]] as const) {
      const meta = (await (await redeemer(new Request(url("/.well-known/openid-configuration")))).json()) as Record<string, unknown>;
      const deviceCode = await approvedCode(issuer, c, cookie, "openid profile offline_access");
      const firstParty = await answer(await redeemer(jsonPost("/device/token", { grant_type: GRANT, device_code: deviceCode, client_id: c.client_id })));
      const stolen = await answer(await redeemer(form("/oauth2/token", { grant_type: GRANT, device_code: deviceCode }, other)));
      const tokens = await answer(await redeemer(form("/oauth2/token", { grant_type: GRANT, device_code: deviceCode }, c)));
      const again = await answer(await redeemer(form("/oauth2/token", { grant_type: GRANT, device_code: deviceCode }, c)));
      const body = tokens.body as Record<string, unknown>;
      results.push({
        endpoint: meta.device_authorization_endpoint,
        listed: (meta.grant_types_supported as string[]).includes(GRANT),
        firstParty,
        stolen,
        tokens: { status: tokens.status, noStore: tokens.noStore, members: Object.keys(body).sort(), token_type: body.token_type, scope: body.scope },
        again: (again.body as { error: string }).error,
      });
    }
    expect(results[0]).toEqual({
      endpoint: `${ISSUER}/device/code`,
      listed: true,
      firstParty: {
        status: 400,
        noStore: true,
        body: { error: "invalid_grant", error_description: "This device code must be exchanged at the OAuth token endpoint (/oauth2/token)." },
      },
      stolen: { status: 400, noStore: true, body: { error: "invalid_grant", error_description: "Client ID mismatch" } },
      tokens: {
        status: 200,
        noStore: true,
        members: ["access_token", "expires_at", "expires_in", "id_token", "refresh_token", "scope", "token_type"],
        token_type: "Bearer",
        scope: "openid profile offline_access",
      },
      again: "invalid_grant",
    });
    expect(results[1]).toEqual(results[0]);
    expect(results[2]).toEqual(results[0]);
  });

  it("refusals answer alike: no grant, a wrong secret, pending, slow_down, no device_code, a public client's code", async () => {
    const p = await pair();
    const { cookie } = await signUp(p.reference, { email: "tv3@example.com", password: "correct horse battery", name: "TV" });
    const c = await register(p.reference, cookie, { grant_types: [GRANT], scope: "openid profile" });
    const web = await register(p.reference, cookie);
    const sides: unknown[] = [];
    for (const side of [p.reference, p.latchkey]) {
      const codes = (await (await side(form("/device/code", { scope: "openid" }, c))).json()) as { device_code: string };
      const poll = () => side(form("/oauth2/token", { grant_type: GRANT, device_code: codes.device_code }, c));
      sides.push({
        noGrant: await answer(await side(form("/device/code", {}, web))),
        badScope: await answer(await side(form("/device/code", { scope: "admin" }, c))),
        wrongSecret: await answer(await side(form("/oauth2/token", { grant_type: GRANT, device_code: codes.device_code }, { ...c, client_secret: "nope" }))),
        missing: await answer(await side(form("/oauth2/token", { grant_type: GRANT }, c))),
        unknown: await answer(await side(form("/oauth2/token", { grant_type: GRANT, device_code: "never-issued" }, c))),
        pending: await answer(await poll()),
        slowDown: await answer(await poll()),
      });
    }
    expect(sides[1]).toEqual(sides[0]);
  });

  it("row 134: a client registered without scopes asks for a scope the provider does not offer — the reference issues the code, Latchkey answers invalid_scope", async () => {
    const p = await pair();
    const { cookie } = await signUp(p.reference, { email: "tv2@example.com", password: "correct horse battery", name: "TV" });
    const c = await register(p.reference, cookie, { grant_types: [GRANT] });
    // Registration fills in the provider's scopes; a row without them (an older or operator-written client) allows "any".
    await p.latchkeyAuth.$context.adapter.updateMany({ model: "oauthClient", where: [{ field: "clientId", value: c.client_id }], update: { scopes: null } });
    const reference = await answer(await p.reference(form("/device/code", { scope: "admin:everything" }, c)));
    const latchkey = await answer(await p.latchkey(form("/device/code", { scope: "admin:everything" }, c)));
    expect(reference.status).toBe(200);
    expect(reference.body).toMatchObject({ device_code: expect.any(String) });
    expect(latchkey).toEqual({ status: 400, noStore: true, body: { error: "invalid_scope", error_description: "scope admin:everything is not supported" } });
  });

  it("RFC 8707 resources bound at /device/code travel across implementations: shown to the approver, narrowed at the poll, never widened", async () => {
    const API = "https://api.example.com";
    const REPORTS = "https://reports.example.com";
    const p = await pair({ resources: [API, REPORTS, "https://other.example.com"], enforcePerClientResources: false });
    const { cookie } = await signUp(p.reference, { email: "tv4@example.com", password: "correct horse battery", name: "TV" });
    const c = await register(p.reference, cookie, { grant_types: [GRANT], scope: "openid profile" });
    const results: unknown[] = [];
    for (const [issuer, redeemer] of [[p.reference, p.latchkey], [p.latchkey, p.reference], [p.latchkey, p.latchkey]] as const) {
      const issued = await issuer(repeatedForm("/device/code", [["scope", "openid"], ["resource", API], ["resource", REPORTS]], c));
      expect(issued.status, await issued.clone().text()).toBe(200);
      const codes = (await issued.json()) as { device_code: string; user_code: string };
      const seen = (await (await issuer(new Request(url(`/device?user_code=${codes.user_code}`), { headers: { cookie } }))).json()) as Record<string, unknown>;
      expect((await issuer(jsonPost("/device/approve", { userCode: codes.user_code }, { cookie }))).status).toBe(200);
      const poll = async (resources: string[]) => {
        await p.latchkeyAuth.$context.adapter.updateMany({ model: "deviceCode", where: [{ field: "deviceCode", value: codes.device_code }], update: { lastPolledAt: null } });
        return answer(await redeemer(repeatedForm("/oauth2/token", [["grant_type", GRANT], ["device_code", codes.device_code], ...resources.map((r): [string, string] => ["resource", r])], c)));
      };
      const widened = await poll(["https://other.example.com"]);
      const narrowed = await poll([REPORTS]);
      const body = narrowed.body as { access_token?: string };
      results.push({ shown: seen.resource, widened, status: narrowed.status, aud: body.access_token ? claimsOf(body.access_token).aud : undefined });
    }
    expect(results[0]).toEqual({
      shown: [API, REPORTS],
      widened: { status: 400, noStore: true, body: { error: "invalid_target", error_description: "Requested resource was not authorized by the user" } },
      status: 200,
      aud: [REPORTS, `${ISSUER}/oauth2/userinfo`],
    });
    expect(results[1]).toEqual(results[0]);
    expect(results[2]).toEqual(results[0]);
    const bad = [];
    for (const side of [p.reference, p.latchkey]) {
      const { status, body } = await answer(await side(form("/device/code", { resource: "not a uri" }, c)));
      bad.push({ status, body });
    }
    // Same refusal; Latchkey's also carries no-store (row 119).
    expect(bad[1]).toEqual(bad[0]);
    expect(bad[0]).toEqual({ status: 400, body: { error: "invalid_target", error_description: "Invalid resource indicator" } });
  });

  it("row 138: the ID token of the device grant — the reference's has no auth_time, Latchkey's carries the approving session's sign-in time", async () => {
    const p = await pair();
    const { cookie } = await signUp(p.reference, { email: "tv5@example.com", password: "correct horse battery", name: "TV" });
    const c = await register(p.reference, cookie, { grant_types: [GRANT], scope: "openid" });
    const idTokens: Array<Record<string, unknown>> = [];
    for (const side of [p.reference, p.latchkey]) {
      const deviceCode = await approvedCode(side, c, cookie, "openid");
      const tokens = await answer(await side(form("/oauth2/token", { grant_type: GRANT, device_code: deviceCode }, c)));
      expect(tokens.status).toBe(200);
      idTokens.push(claimsOf((tokens.body as { id_token: string }).id_token));
    }
    const session = await p.latchkeyAuth.$context.adapter.findOne<{ createdAt: Date }>({ model: "session", where: [{ field: "userId", value: String(idTokens[1]!.sub) }] });
    expect(idTokens[0]!.auth_time).toBeUndefined();
    expect(idTokens[1]!.auth_time).toBe(Math.floor(new Date(session!.createdAt).getTime() / 1000));
  });
});
