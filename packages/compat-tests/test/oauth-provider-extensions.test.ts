import { consumeClientAssertion as referenceConsume } from "@better-auth/oauth-provider";
import { consumeClientAssertion, type OAuthProviderExtension } from "@latchkey/oauth-provider";
import { describe, expect, it } from "vitest";
import { signUp } from "./support/flows.ts";
import { url } from "./support/instances.ts";
import { answer, form, pairPerTest, register } from "./support/oauth-provider.ts";

/**
 * One `OAuthProviderExtension` object, written once against the reference's documented shape,
 * given to both providers' `extensions` option: the port is the import and nothing else.
 */
const GRANT = "urn:example:params:oauth:grant-type:user-email";

const extension: OAuthProviderExtension = {
  grants: {
    [GRANT]: async ({ ctx, provider }) => {
      const body = ctx.body as Record<string, string>;
      const scopes = body.scope ? body.scope.split(" ") : [];
      const { client } = await provider.authenticateClient({ scopes });
      const found = await ctx.context.internalAdapter.findUserByEmail(body.email ?? "");
      return provider.issueTokens({ client, scopes, user: found!.user, tokenResponse: { issued_by: "extension" } });
    },
  },
  claims: {
    idToken: () => ({ tenant: "acme", sub: "forged" }),
    userInfo: () => ({ department: "research" }),
  },
  metadata: () => ({ example_endpoint: "https://example.com/extension", issuer: "https://forged.example" }),
};

const claimsOf = (jwt: string): Record<string, unknown> => JSON.parse(Buffer.from(jwt.split(".")[1]!, "base64url").toString()) as Record<string, unknown>;

const pair = pairPerTest();

describe("oauthProvider({ extensions }): one extension on both sides", () => {
  it("discovery, the extension grant's token set, ID token and userinfo claims answer alike", async () => {
    const p = await pair({ extensions: [extension] });
    const { cookie } = await signUp(p.reference, { email: "ext@example.com", password: "correct horse battery", name: "Ext" });
    const c = await register(p.reference, cookie, { grant_types: [GRANT], scope: "openid email" });
    const sides: unknown[] = [];
    for (const side of [p.reference, p.latchkey]) {
      const doc = (await (await side(new Request(url("/.well-known/openid-configuration")))).json()) as Record<string, unknown>;
      const tokens = await answer(await side(form("/oauth2/token", { grant_type: GRANT, email: "ext@example.com", scope: "openid email" }, c)));
      const body = tokens.body as Record<string, string>;
      const idToken = claimsOf(body.id_token!);
      const info = (await (await side(new Request(url("/oauth2/userinfo"), { headers: { authorization: `Bearer ${body.access_token}` } }))).json()) as Record<string, unknown>;
      sides.push({
        listed: (doc.grant_types_supported as string[]).includes(GRANT),
        example: doc.example_endpoint,
        issuerKept: doc.issuer !== "https://forged.example",
        status: tokens.status,
        noStore: tokens.noStore,
        members: Object.keys(body).sort(),
        issuedBy: body.issued_by,
        tenant: idToken.tenant,
        subKept: idToken.sub !== "forged",
        department: info.department,
        email: info.email,
      });
    }
    expect(sides[0]).toEqual({
      listed: true,
      example: "https://example.com/extension",
      issuerKept: true,
      status: 200,
      noStore: true,
      members: ["access_token", "expires_at", "expires_in", "id_token", "issued_by", "scope", "token_type"],
      issuedBy: "extension",
      tenant: "acme",
      subKept: true,
      department: "research",
      email: "ext@example.com",
    });
    expect(sides[1]).toEqual(sides[0]);
  });

  it("a client not registered for the extension grant, or a wrong secret, is refused alike", async () => {
    const p = await pair({ extensions: [extension] });
    const { cookie } = await signUp(p.reference, { email: "ext2@example.com", password: "correct horse battery", name: "Ext" });
    const other = await register(p.reference, cookie);
    const c = await register(p.reference, cookie, { grant_types: [GRANT], scope: "openid" });
    const sides: unknown[] = [];
    for (const side of [p.reference, p.latchkey]) {
      const notRegistered = await answer(await side(form("/oauth2/token", { grant_type: GRANT, email: "ext2@example.com" }, other)));
      const wrongSecret = await answer(await side(form("/oauth2/token", { grant_type: GRANT, email: "ext2@example.com" }, { ...c, client_secret: "nope" })));
      sides.push({ notRegistered: [notRegistered.status, (notRegistered.body as { error: string }).error], wrongSecret: [wrongSecret.status, (wrongSecret.body as { error: string }).error] });
    }
    expect(sides[1]).toEqual(sides[0]);
  });
});

describe("consumeClientAssertion: the helper extension methods call, on both sides", () => {
  const AUDIENCE = `${url("/oauth2/token")}`;
  type Consume = (namespace: string, payload: Record<string, unknown>) => Promise<string>;
  const outcome = async (run: () => Promise<void>) => {
    try {
      await run();
      return "ok";
    } catch (error) {
      const { status, body } = error as { status?: unknown; statusCode?: unknown; body?: { error?: string; error_description?: string } };
      return `${String((error as { statusCode?: unknown }).statusCode ?? status)} ${body?.error} ${body?.error_description}`;
    }
  };

  it("the same refusals, and a jti spent on one side is spent on the other (the reference's id derivation)", async () => {
    const p = await pair();
    const refContext = (await p.referenceContext) as Parameters<typeof referenceConsume>[0]["context"];
    const sides: Record<"reference" | "latchkey", Consume> = {
      reference: (namespace, payload) =>
        outcome(() => referenceConsume({ context: refContext } as Parameters<typeof referenceConsume>[0], {} as Parameters<typeof referenceConsume>[1], { namespace, payload, expectedAudience: AUDIENCE })),
      latchkey: (namespace, payload) => outcome(() => consumeClientAssertion({ context: p.latchkeyAuth.$context }, {}, { namespace, payload, expectedAudience: AUDIENCE })),
    };
    const now = Math.floor(Date.now() / 1000);
    const refusals = [
      { aud: "https://elsewhere.example", exp: now + 60, jti: "x" },
      { aud: AUDIENCE, jti: "x" },
      { aud: AUDIENCE, exp: now - 5, jti: "x" },
      { aud: AUDIENCE, exp: now + 3600, jti: "x" },
      { aud: AUDIENCE, exp: now + 60, iat: now - 3600, jti: "x" },
      { aud: AUDIENCE, exp: now + 60 },
    ];
    const answers = { reference: [] as string[], latchkey: [] as string[] };
    for (const side of ["reference", "latchkey"] as const) for (const payload of refusals) answers[side].push(await sides[side]("m:c", payload));
    expect(answers.latchkey).toEqual(answers.reference);
    expect(answers.latchkey[0]).toBe("400 invalid_client client assertion aud does not match the endpoint");
    for (const [first, second] of [["reference", "latchkey"], ["latchkey", "reference"]] as const) {
      const payload = { aud: [AUDIENCE], exp: now + 60, jti: `spent-on-${first}` };
      expect(await sides[first]("hmac:client", payload)).toBe("ok");
      expect(await sides[second]("hmac:client", payload)).toBe("400 invalid_client client assertion jti has already been used");
      expect(await sides[second]("hmac:other-client", payload)).toBe("ok");
    }
  });
});
