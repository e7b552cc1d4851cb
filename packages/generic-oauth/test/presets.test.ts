import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findSocialProvider } from "@latchkey/core";
import { CLIENT_ID, CLIENT_SECRET, type TestIdP } from "@latchkey/test-support";
import {
  auth0,
  gumroad,
  hubspot,
  keycloak,
  line,
  microsoftEntraId,
  okta,
  patreon,
  slack,
  yandex,
} from "../src/index.ts";
import { accounts, AUTH, genericInstance, sessionOf, signIn, startAliceIdP } from "./support/instance.ts";
import { issueAccessToken, startOAuth2Server } from "./support/oauth2-server.ts";

const client = { clientId: "cid", clientSecret: "secret" };
const TENANT = "8f0c5b1e-2d3a-4c5b-9e6f-0a1b2c3d4e5f";

let idp: TestIdP;
beforeAll(async () => {
  idp = await startAliceIdP();
});
afterAll(() => idp.close());

describe("the configurations the presets produce", () => {
  it("auth0 discovers on the tenant host, with or without a scheme", () => {
    for (const domain of ["tenant.eu.auth0.com", "https://tenant.eu.auth0.com/some/path"]) {
      expect(auth0({ ...client, domain })).toMatchObject({
        providerId: "auth0",
        discoveryUrl: "https://tenant.eu.auth0.com/.well-known/openid-configuration",
        scopes: ["openid", "profile", "email"],
        clientId: "cid",
        clientSecret: "secret",
      });
    }
  });

  it("keycloak and okta discover on the issuer; passthrough options are kept", () => {
    const kc = keycloak({
      ...client,
      issuer: "https://id.example/realms/main/",
      pkce: false,
      scopes: ["openid"],
    });
    expect(kc).toMatchObject({
      providerId: "keycloak",
      discoveryUrl: "https://id.example/realms/main/.well-known/openid-configuration",
      pkce: false,
      scopes: ["openid"],
    });
    expect(
      okta({ ...client, issuer: "https://dev-1.okta.com/oauth2/default", postLogoutRedirectURI: "/bye" }),
    ).toMatchObject({
      providerId: "okta",
      discoveryUrl: "https://dev-1.okta.com/oauth2/default/.well-known/openid-configuration",
      postLogoutRedirectURI: "/bye",
    });
  });

  it("the plain presets carry the vendor endpoints and scopes", () => {
    expect(gumroad(client)).toMatchObject({
      providerId: "gumroad",
      authorizationUrl: "https://gumroad.com/oauth/authorize",
      tokenUrl: "https://api.gumroad.com/oauth/token",
      scopes: ["view_profile"],
    });
    expect(hubspot(client)).toMatchObject({
      providerId: "hubspot",
      authorizationUrl: "https://app.hubspot.com/oauth/authorize",
      tokenUrl: "https://api.hubapi.com/oauth/v1/token",
      authentication: "post",
      scopes: ["oauth"],
    });
    expect(patreon(client)).toMatchObject({
      providerId: "patreon",
      authorizationUrl: "https://www.patreon.com/oauth2/authorize",
      tokenUrl: "https://www.patreon.com/api/oauth2/token",
      scopes: ["identity[email]"],
    });
    expect(yandex(client)).toMatchObject({
      providerId: "yandex",
      authorizationUrl: "https://oauth.yandex.com/authorize",
      tokenUrl: "https://oauth.yandex.com/token",
      scopes: ["login:info", "login:email", "login:avatar"],
    });
    expect(slack(client)).toMatchObject({
      providerId: "slack",
      authorizationUrl: "https://slack.com/openid/connect/authorize",
      tokenUrl: "https://slack.com/api/openid.connect.token",
      userInfoUrl: "https://slack.com/api/openid.connect.userInfo",
    });
    expect(line(client)).toMatchObject({
      providerId: "line",
      authorizationUrl: "https://access.line.me/oauth2/v2.1/authorize",
      tokenUrl: "https://api.line.me/oauth2/v2.1/token",
      userInfoUrl: "https://api.line.me/oauth2/v2.1/userinfo",
    });
    expect(line({ ...client, providerId: "line-th" }).providerId).toBe("line-th");
  });

  it("microsoftEntraId needs a tenant GUID and requires verified ID tokens", () => {
    expect(microsoftEntraId({ ...client, tenantId: TENANT.toUpperCase() })).toMatchObject({
      providerId: "microsoft-entra-id",
      discoveryUrl: `https://login.microsoftonline.com/${TENANT}/v2.0/.well-known/openid-configuration`,
      authorizationUrl: `https://login.microsoftonline.com/${TENANT}/oauth2/v2.0/authorize`,
      tokenUrl: `https://login.microsoftonline.com/${TENANT}/oauth2/v2.0/token`,
      userInfoUrl: "https://graph.microsoft.com/oidc/userinfo",
      requireIdTokenVerification: true,
      scopes: ["openid", "profile", "email"],
    });
    for (const tenantId of ["common", "organizations", "consumers", "contoso.onmicrosoft.com", ""]) {
      expect(() => microsoftEntraId({ ...client, tenantId })).toThrow(TypeError);
    }
  });
});

describe("discovery presets against the test IdP", () => {
  it.each([
    ["keycloak", keycloak],
    ["okta", okta],
  ] as const)("%s signs in by the issuer's discovery document, keyed by sub", async (id, preset) => {
    const { browser, store } = genericInstance({
      config: [
        {
          ...preset({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, issuer: idp.issuer }),
          authentication: "basic",
        },
      ],
    });
    idp.login("alice-sub");
    const landed = await signIn(browser, { provider: id });
    expect(landed.pathname).toBe("/dashboard");
    expect(accounts(store)[0]).toMatchObject({ providerId: id, accountId: "alice-sub" });
    expect((await sessionOf(browser))?.user.email).toBe("alice@example.com");
  });
});

describe("microsoftEntraId", () => {
  async function entraProvider(userInfoUrl?: string) {
    const config = {
      ...microsoftEntraId({
        clientId: CLIENT_ID,
        clientSecret: CLIENT_SECRET,
        tenantId: TENANT,
        discoveryUrl: `${idp.issuer}/.well-known/openid-configuration`,
        userInfoUrl,
      }),
      authentication: "basic" as const,
    };
    const instance = genericInstance({ config: [config] });
    await instance.auth.handler(new Request(`${AUTH}/ok`));
    const provider = await findSocialProvider(instance.auth.$context, "microsoft-entra-id");
    if (!provider) throw new Error("provider not registered");
    return { ...instance, provider };
  }

  it("keys accounts by the verified token's oid and gives a user without email a placeholder address", async () => {
    const { provider } = await entraProvider();
    const idToken = await idp.signIdToken({
      sub: "pairwise-sub",
      oid: "00000000-0000-0000-0000-0000000000aa",
      name: "Ann",
    });
    const info = await provider.getUserInfo({ idToken });
    expect(info?.user).toMatchObject({
      email: "00000000-0000-0000-0000-0000000000aa@microsoft-entra-id.placeholder.invalid",
      emailVerified: false,
      name: "Ann",
    });
    expect(await provider.accountSubject({ tokens: { idToken }, profile: info!.data })).toBe(
      "00000000-0000-0000-0000-0000000000aa",
    );
  });

  it("refuses a token without oid, and one that does not verify", async () => {
    const { provider } = await entraProvider();
    expect(await provider.getUserInfo({ idToken: await idp.signIdToken({ sub: "s" }) })).toBeNull();
    const other = await idp.signIdToken({ sub: "s", oid: "o" }, { kid: "unknown-key" });
    expect(await provider.getUserInfo({ idToken: other })).toBeNull();
  });

  it("adds UserInfo claims only when UserInfo names the same sub", async () => {
    const graph = await startOAuth2Server({
      "/oidc/userinfo": () => ({ sub: "entra-sub", email: "ann@contoso.example", email_verified: true }),
    });
    try {
      const { provider } = await entraProvider(`${graph.url}/oidc/userinfo`);
      const accessToken = await issueAccessToken(graph);
      const same = await provider.getUserInfo({
        idToken: await idp.signIdToken({ sub: "entra-sub", oid: "oid-1" }),
        accessToken,
      });
      expect(same?.user).toMatchObject({ email: "ann@contoso.example", emailVerified: true });
      const other = await provider.getUserInfo({
        idToken: await idp.signIdToken({ sub: "someone-else", oid: "oid-2" }),
        accessToken,
      });
      expect(other?.user).toMatchObject({
        email: "oid-2@microsoft-entra-id.placeholder.invalid",
        emailVerified: false,
      });
    } finally {
      await graph.close();
    }
  });

  it("fails a redirect sign-in with unable_to_get_user_info when the ID token has no oid", async () => {
    idp.login("alice-sub");
    const redirect = genericInstance({
      config: [
        {
          ...microsoftEntraId({
            clientId: CLIENT_ID,
            clientSecret: CLIENT_SECRET,
            tenantId: TENANT,
            discoveryUrl: `${idp.issuer}/.well-known/openid-configuration`,
          }),
          authentication: "basic",
        },
      ],
    });
    const landed = await signIn(redirect.browser, {
      provider: "microsoft-entra-id",
      errorCallbackURL: "/oops",
    });
    expect(landed.searchParams.get("error")).toBe("unable_to_get_user_info");
    expect(await sessionOf(redirect.browser)).toBeNull();
  });
});
