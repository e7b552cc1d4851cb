import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  MICROSOFT_CONSUMER_TENANT_ID,
  microsoft,
  type MicrosoftOptions,
} from "../src/providers/microsoft.ts";
import { startFakeProvider, type FakeProvider } from "./support/fake-provider.ts";
import { AUTH, at, CLIENT, providerInstance, signInThrough } from "./support/flow.ts";
import { idTokenSigner, type IdTokenSigner } from "./support/id-token-signer.ts";

const LOGIN = "https://login.microsoftonline.com";
const TENANT = "72f988bf-86f1-41af-91ab-2d7cd011db47";
const ENDPOINTS = { authorization: "/authorize", token: "/token", jwks: "/keys", graph: "/v1.0" };
// ASCII bytes: the emulator answers text bodies as UTF-8.
const PHOTO = new TextEncoder().encode("JFIF photo bytes");
const CLAIMS = {
  iss: `${LOGIN}/${TENANT}/v2.0`,
  aud: CLIENT.clientId,
  tid: TENANT,
  oid: "00000000-0000-0000-66f3-3332eca7ea81",
  sub: "AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ",
  name: "Ada Lovelace",
  email: "ada@contoso.example",
  preferred_username: "ada@contoso.example",
};

describe("microsoft", () => {
  let fake: FakeProvider;
  let signer: IdTokenSigner;
  beforeAll(async () => {
    fake = await startFakeProvider();
    signer = await idTokenSigner("RS256");
    fake.on("GET /keys", { json: signer.jwks });
  });
  afterAll(() => fake.close());
  beforeEach(() => {
    fake.tokens = {};
    fake.on("GET /v1.0/me/photos/48x48/$value", {
      text: new TextDecoder().decode(PHOTO),
      headers: { "content-type": "image/jpeg" },
    });
  });

  const provider = (options: Partial<MicrosoftOptions> = {}) =>
    microsoft({ ...CLIENT, endpoints: at(fake, ENDPOINTS), ...options });
  const withIdToken = async (claims: Record<string, unknown>) => {
    fake.tokens = { id_token: await signer.sign({ ...CLAIMS, ...claims }) };
  };

  it("redirect flow: PKCE, login_hint, prompt; keyed by oid; Graph photo as a data URL", async () => {
    await withIdToken({ email_verified: true });
    const t = await providerInstance(provider({ prompt: "select_account" }), { sqlite: true });
    try {
      const result = await signInThrough(t, "microsoft", fake, { loginHint: "ada@contoso.example" });
      const q = result.authorize;
      expect(q.get("scope")).toBe("openid profile email User.Read offline_access");
      expect(q.get("code_challenge_method")).toBe("S256");
      expect(q.get("login_hint")).toBe("ada@contoso.example");
      expect(q.get("prompt")).toBe("select_account");
      expect(q.has("nonce")).toBe(false);
      expect(fake.last("/v1.0/me/photos/48x48/$value")!.headers.authorization).toBe("Bearer access-token-1");
      expect(result.session?.user).toMatchObject({
        name: "Ada Lovelace",
        email: "ada@contoso.example",
        emailVerified: true,
        image: `data:image/jpeg;base64, ${Buffer.from(PHOTO).toString("base64")}`,
      });
      expect(result.accounts).toEqual([
        expect.objectContaining({ providerId: "microsoft", accountId: CLAIMS.oid }),
      ]);
    } finally {
      t.cleanup();
    }
  });

  it("accountIdClaim 'sub' keeps the 1.0 ids", async () => {
    await withIdToken({});
    const result = await signInThrough(
      await providerInstance(provider({ accountIdClaim: "sub" })),
      "microsoft",
      fake,
    );
    expect(result.accounts[0]).toMatchObject({ accountId: CLAIMS.sub });
  });

  it("a token without a usable oid: unable_to_get_user_info on callback, 401 on ID-token sign-in", async () => {
    for (const oid of [undefined, "", "  "]) {
      await withIdToken({ oid });
      const result = await signInThrough(await providerInstance(provider()), "microsoft", fake);
      expect(result.location.searchParams.get("error")).toBe("unable_to_get_user_info");
      expect(result.session).toBeNull();
    }
    const t = await providerInstance(provider({ tenantId: TENANT }));
    const res = await t.browser.post(`${AUTH}/sign-in/social`, {
      provider: "microsoft",
      idToken: { token: await signer.sign({ ...CLAIMS, oid: undefined }) },
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: "FAILED_TO_GET_USER_INFO" });
  });

  it("photo: size option, none when disabled or when Graph has none; verified emails lists", async () => {
    const token = await signer.sign({ ...CLAIMS, verified_secondary_email: ["ada@contoso.example"] });
    fake.on("GET /v1.0/me/photos/96x96/$value", { status: 404, json: { error: { code: "ImageNotFound" } } });
    const missing = await provider({ profilePhotoSize: 96 }).getUserInfo({
      idToken: token,
      accessToken: "a",
    });
    expect(fake.last("/v1.0/me/photos/96x96/$value")).toBeDefined();
    expect(missing?.user.image).toBeUndefined();
    expect(missing?.user.emailVerified).toBe(true);
    const before = fake.requests.length;
    const disabled = await provider({ disableProfilePhoto: true }).getUserInfo({
      idToken: token,
      accessToken: "a",
    });
    expect(fake.requests.length).toBe(before);
    expect(disabled?.user.image).toBeUndefined();
    const unverified = await provider().getUserInfo({ idToken: await signer.sign(CLAIMS) });
    expect(unverified?.user.emailVerified).toBe(false);
  });

  it("ID-token sign-in with a specific tenant pins its issuer", async () => {
    const t = await providerInstance(provider({ tenantId: TENANT }));
    const signIn = async (claims: Record<string, unknown>) =>
      (
        await t.browser.post(`${AUTH}/sign-in/social`, {
          provider: "microsoft",
          idToken: { token: await signer.sign({ ...CLAIMS, ...claims }) },
        })
      ).status;
    expect(await signIn({})).toBe(200);
    const other = "11111111-2222-3333-4444-555555555555";
    expect(await signIn({ tid: other, iss: `${LOGIN}/${other}/v2.0` })).toBe(401);
    expect(await signIn({ aud: "another-app" })).toBe(401);
  });

  it("ID-token sign-in on the multi-tenant endpoints binds iss to tid and the account class", async () => {
    const other = "11111111-2222-3333-4444-555555555555";
    const consumer = {
      tid: MICROSOFT_CONSUMER_TENANT_ID,
      iss: `${LOGIN}/${MICROSOFT_CONSUMER_TENANT_ID}/v2.0`,
    };
    const work = { tid: other, iss: `${LOGIN}/${other}/v2.0` };
    const cases: [string, Record<string, unknown>, number][] = [
      ["common", work, 200],
      ["common", consumer, 200],
      ["common", { tid: other, iss: `${LOGIN}/${TENANT}/v2.0` }, 401],
      ["common", { tid: undefined }, 401],
      ["organizations", work, 200],
      ["organizations", consumer, 401],
      ["consumers", consumer, 200],
      ["consumers", work, 401],
    ];
    for (const [tenantId, claims, status] of cases) {
      const t = await providerInstance(provider({ tenantId }));
      const res = await t.browser.post(`${AUTH}/sign-in/social`, {
        provider: "microsoft",
        idToken: { token: await signer.sign({ ...CLAIMS, ...claims }) },
      });
      expect([tenantId, res.status]).toEqual([tenantId, status]);
    }
  });

  it("endpoints from tenant and authority; refresh repeats the scopes", async () => {
    const data = { state: "s", codeVerifier: "v".repeat(43), redirectURI: "http://x/cb" };
    const common = await microsoft(CLIENT).createAuthorizationURL(data);
    expect(common.origin + common.pathname).toBe(`${LOGIN}/common/oauth2/v2.0/authorize`);
    const ciam = await microsoft({
      ...CLIENT,
      tenantId: TENANT,
      authority: "https://contoso.ciamlogin.com/",
    }).createAuthorizationURL(data);
    expect(ciam.origin + ciam.pathname).toBe(`https://contoso.ciamlogin.com/${TENANT}/oauth2/v2.0/authorize`);

    await provider({ scope: ["Mail.Read"] }).refreshAccessToken!("refresh-token-1");
    const refresh = fake.last("/token")!.form;
    expect(refresh.get("grant_type")).toBe("refresh_token");
    expect(refresh.get("scope")).toBe("openid profile email User.Read offline_access Mail.Read");
    expect(refresh.get("client_secret")).toBe(CLIENT.clientSecret);
  });

  it("clientAssertion authenticates with private_key_jwt, never together with a secret", async () => {
    const contexts: unknown[] = [];
    const p = microsoft({
      clientId: CLIENT.clientId,
      endpoints: at(fake, ENDPOINTS),
      clientAssertion: (context) => {
        contexts.push(context);
        return "signed.assertion.jwt";
      },
    });
    await p.refreshAccessToken!("refresh-token-1");
    const form = fake.last("/token")!.form;
    expect(form.get("client_assertion")).toBe("signed.assertion.jwt");
    expect(form.get("client_assertion_type")).toBe("urn:ietf:params:oauth:client-assertion-type:jwt-bearer");
    expect(form.has("client_secret")).toBe(false);
    expect(contexts[0]).toMatchObject({ clientId: CLIENT.clientId, tokenEndpoint: fake.url("/token") });
    expect(() => microsoft({ ...CLIENT, clientAssertion: () => "x" })).toThrow(TypeError);
  });
});
