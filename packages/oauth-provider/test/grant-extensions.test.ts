import { getService, provide, type EndpointContext, type LatchkeyPlugin } from "@latchkey/core";
import { client, testAuth, type TestAuth } from "@latchkey/test-support";
import { jwt } from "@latchkey/jwt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OAUTH_PROVIDER_API, oauthGrantExtensionKey, oauthProvider, type OAuthGrantExtension } from "../src/index.ts";
import { adminClient, baseOptions, formPost, signedIn } from "./instance.ts";

const GRANT = "urn:example:params:oauth:grant-type:same-user";

/**
 * A companion plugin as `oauthDeviceAuthorization()` is one: it publishes a grant handler
 * that authenticates the client and issues tokens through `OAUTH_PROVIDER_API`. Its grant
 * gives the token set of the user whose id is sent (a test-only grant, never a real one).
 */
const sameUserGrant = (): LatchkeyPlugin => {
  const extension: OAuthGrantExtension = {
    grantType: GRANT,
    metadata: (context) => ({ example_endpoint: `${context.baseURL}/example` }),
    async handle(ctx: EndpointContext) {
      const body = ctx.body as Record<string, unknown>;
      const provider = getService(ctx.context, OAUTH_PROVIDER_API);
      const scopes = typeof body.scope === "string" ? body.scope.split(" ") : [];
      const client = await provider.authenticateClient(ctx.context, { headers: ctx.headers, body, endpoint: `${ctx.context.baseURL}/oauth2/token` }, { scopes, grant: GRANT });
      const user = await ctx.context.internalAdapter.findUserById(String(body.user_id));
      if (!user) throw new Error("no such user");
      return provider.issueTokens(ctx.context, GRANT, { client, scopes, user });
    },
  };
  return { id: "same-user-grant", init: () => ({ services: [provide(oauthGrantExtensionKey(GRANT), extension)] }) };
};

describe("grant extensions: a plugin adds a grant type to /oauth2/token", () => {
  let t: TestAuth;
  beforeAll(async () => {
    t = await testAuth({ emailAndPassword: { enabled: true }, plugins: [sameUserGrant(), jwt(), oauthProvider(baseOptions)] }, { db: "sqlite" });
  });
  afterAll(() => t.close());

  it("discovery lists the grant and the extension's members; registration accepts it; the token endpoint runs it", async () => {
    const doc = (await client(t.auth).get<Record<string, unknown>>("/.well-known/openid-configuration")).json!;
    expect(doc.grant_types_supported).toContain(GRANT);
    expect(doc.example_endpoint).toBe(`${t.auth.$context.baseURL}/example`);
    const browser = await signedIn(t);
    const userId = (await t.auth.$context.internalAdapter.findUserByEmail("ada@example.com"))!.user.id;
    const made = await adminClient(t, { grant_types: [GRANT] });
    const basic = { id: made.client_id, secret: made.client_secret! };
    const tokens = await formPost(browser, "/oauth2/token", { grant_type: GRANT, user_id: userId, scope: "openid profile" }, basic);
    expect(tokens.status, tokens.text).toBe(200);
    expect(tokens.headers.get("cache-control")).toBe("no-store");
    expect(tokens.json).toMatchObject({ token_type: "Bearer", scope: "openid profile", id_token: expect.any(String) });
    const wrong = await formPost(browser, "/oauth2/token", { grant_type: GRANT, user_id: userId }, { ...basic, secret: "nope" });
    expect([wrong.status, (wrong.json as { error: string }).error]).toEqual([401, "invalid_client"]);
    expect(wrong.headers.get("cache-control")).toBe("no-store");
  });

  it("a client not registered for the grant is unauthorized_client", async () => {
    const browser = client(t.auth);
    const made = await adminClient(t);
    const refused = await formPost(browser, "/oauth2/token", { grant_type: GRANT, user_id: "x" }, { id: made.client_id, secret: made.client_secret! });
    expect(refused.json).toMatchObject({ error: "unauthorized_client" });
  });
});

describe("without the extension plugin", () => {
  it("the grant is unsupported and not advertised", async () => {
    const t = await testAuth({ emailAndPassword: { enabled: true }, plugins: [jwt(), oauthProvider(baseOptions)] }, { db: "sqlite" });
    try {
      const doc = (await client(t.auth).get<Record<string, unknown>>("/.well-known/openid-configuration")).json!;
      expect(doc.grant_types_supported).not.toContain(GRANT);
      const refused = await formPost(client(t.auth), "/oauth2/token", { grant_type: GRANT, client_id: "x" });
      expect(refused.json).toMatchObject({ error: "unsupported_grant_type" });
    } finally {
      await t.close();
    }
  });
});
