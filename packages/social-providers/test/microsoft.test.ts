import { beforeEach, describe, expect, it } from "vitest";
import {
  MICROSOFT_CONSUMER_TENANT_ID,
  microsoft,
  type MicrosoftOptions,
} from "../src/providers/microsoft.ts";
import { useFakeProvider } from "./support/fake-provider.ts";
import {
  expectParams,
  expectRefresh,
  expectSignedIn,
  expectSignInError,
} from "./support/flow-expectations.ts";
import { AUTH, AUTHORIZATION_REQUEST, at, CLIENT, providerInstance, signInThrough } from "./support/flow.ts";
import { useIdTokenSigners } from "./support/id-token-signer.ts";

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
  const fake = useFakeProvider();
  const signers = useIdTokenSigners(fake, "GET /keys", "RS256");
  beforeEach(() => {
    fake.on("GET /v1.0/me/photos/48x48/$value", {
      text: new TextDecoder().decode(PHOTO),
      headers: { "content-type": "image/jpeg" },
    });
  });

  const provider = (options: Partial<MicrosoftOptions> = {}) =>
    microsoft({ ...CLIENT, endpoints: at(fake, ENDPOINTS), ...options });
  const withIdToken = async (claims: Record<string, unknown>) => {
    fake.tokens = { id_token: await signers.RS256.sign({ ...CLAIMS, ...claims }) };
  };

  it("redirect flow: PKCE, login_hint, prompt; keyed by oid; Graph photo as a AUTHORIZATION_REQUEST URL", async () => {
    await withIdToken({ email_verified: true });
    const t = await providerInstance(provider({ prompt: "select_account" }), { sqlite: true });
    const result = await signInThrough(t, "microsoft", fake, { loginHint: "ada@contoso.example" });
    const q = result.authorize;
    expectParams(q, {
      scope: "openid profile email User.Read offline_access",
      code_challenge_method: "S256",
      login_hint: "ada@contoso.example",
      prompt: "select_account",
      nonce: null,
    });
    expect(fake.last("/v1.0/me/photos/48x48/$value")!.headers.authorization).toBe("Bearer access-token-1");
    expectSignedIn(
      result,
      { providerId: "microsoft", accountId: CLAIMS.oid },
      {
        name: "Ada Lovelace",
        email: "ada@contoso.example",
        emailVerified: true,
        image: `data:image/jpeg;base64, ${Buffer.from(PHOTO).toString("base64")}`,
      },
    );
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
      await expectSignInError(await providerInstance(provider()), "microsoft", fake);
    }
    const t = await providerInstance(provider({ tenantId: TENANT }));
    const res = await t.browser.post(`${AUTH}/sign-in/social`, {
      provider: "microsoft",
      idToken: { token: await signers.RS256.sign({ ...CLAIMS, oid: undefined }) },
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: "FAILED_TO_GET_USER_INFO" });
  });

  it("photo: size option, none when disabled or when Graph has none; verified emails lists", async () => {
    const token = await signers.RS256.sign({ ...CLAIMS, verified_secondary_email: ["ada@contoso.example"] });
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
    const unverified = await provider().getUserInfo({ idToken: await signers.RS256.sign(CLAIMS) });
    expect(unverified?.user.emailVerified).toBe(false);
  });

  it("ID-token sign-in with a specific tenant pins its issuer", async () => {
    const t = await providerInstance(provider({ tenantId: TENANT }));
    const signIn = async (claims: Record<string, unknown>) =>
      (
        await t.browser.post(`${AUTH}/sign-in/social`, {
          provider: "microsoft",
          idToken: { token: await signers.RS256.sign({ ...CLAIMS, ...claims }) },
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
        idToken: { token: await signers.RS256.sign({ ...CLAIMS, ...claims }) },
      });
      expect([tenantId, res.status]).toEqual([tenantId, status]);
    }
  });

  it("endpoints from tenant and authority; refresh repeats the scopes", async () => {
    const common = await microsoft(CLIENT).createAuthorizationURL(AUTHORIZATION_REQUEST);
    expect(common.origin + common.pathname).toBe(`${LOGIN}/common/oauth2/v2.0/authorize`);
    const ciam = await microsoft({
      ...CLIENT,
      tenantId: TENANT,
      authority: "https://contoso.ciamlogin.com/",
    }).createAuthorizationURL(AUTHORIZATION_REQUEST);
    expect(ciam.origin + ciam.pathname).toBe(`https://contoso.ciamlogin.com/${TENANT}/oauth2/v2.0/authorize`);

    const { request } = await expectRefresh(provider({ scope: ["Mail.Read"] }), fake, { auth: "post" });
    expect(request.form.get("scope")).toBe("openid profile email User.Read offline_access Mail.Read");
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
