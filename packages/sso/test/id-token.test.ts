import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, type TestAuth, type TestIdP } from "@latchkey/test-support";
import { startDocumentServer, type DocumentServer } from "./document-server.ts";
import { AUTH, CLIENT_ID, registration, signedIn, ssoInstance, startSSOIdP } from "./instance.ts";

const BASE = "http://localhost:3000";

// The real IdP signs the tokens (its JWKS verifies them); a small server plays the token endpoint.
let idp: TestIdP;
let tokens: DocumentServer;
let t: TestAuth;
beforeAll(async () => {
  idp = await startSSOIdP(["forged"]);
  tokens = await startDocumentServer();
  t = await ssoInstance("sqlite", idp, {}, { trustedOrigins: [idp.issuer, tokens.origin] });
  const owner = await signedIn(t, "owner");
  const endpoints = {
    skipDiscovery: true,
    authorizationEndpoint: `${idp.issuer}/auth`,
    jwksEndpoint: `${idp.issuer}/jwks`,
  };
  for (const [id, path] of [
    ["forged", "/token"],
    ["bounced", "/token-redirect"],
  ] as const) {
    const answer = await owner.post(
      "/sso/register",
      registration(idp, id, { ...endpoints, tokenEndpoint: `${tokens.origin}${path}` }),
    );
    if (answer.status !== 200) throw new Error(`register: ${answer.text}`);
  }
});
afterAll(async () => {
  await t.close();
  await tokens.close();
  await idp.close();
});

/** Starts a sign-in, then calls back with a made-up code: the token server answers `tokenResponse`. */
async function callBack(providerId: string): Promise<{ location: URL; browser: Browser }> {
  const browser = new Browser(BASE, t.auth.handler);
  const res = await browser.post(`${AUTH}/sign-in/sso`, {
    callbackURL: "/dashboard",
    errorCallbackURL: "/oops",
    providerId,
  });
  const authorize = new URL(((await res.json()) as { url: string }).url);
  const callback = new URL(`${AUTH}/sso/callback/${providerId}`);
  callback.searchParams.set("code", "a-code");
  callback.searchParams.set("state", authorize.searchParams.get("state")!);
  const answer = await browser.send(callback.href, { redirect: "manual" });
  expect(answer.status).toBe(302);
  return { location: new URL(answer.headers.get("location")!, BASE), browser };
}

const claims = (extra: Record<string, unknown> = {}) => ({
  iss: idp.issuer,
  aud: CLIENT_ID,
  sub: "carol-sub",
  email: "carol@acme.example",
  name: "Carol",
  iat: Math.floor(Date.now() / 1000),
  exp: Math.floor(Date.now() / 1000) + 600,
  ...extra,
});

describe("ID-token verification and endpoint redirects", () => {
  it("accepts an ID token with the provider's issuer, the client id as audience and azp", async () => {
    tokens.tokenResponse = {
      access_token: "at",
      token_type: "Bearer",
      id_token: await idp.signIdToken(claims({ azp: CLIENT_ID })),
    };
    const { location } = await callBack("forged");
    expect(location.href).toBe(`${BASE}/dashboard`);
  });

  for (const [name, extra] of [
    ["another issuer", { iss: "https://someone.else" }],
    ["another audience", { aud: "another-client" }],
    ["an azp naming another client", { aud: [CLIENT_ID, "another-client"], azp: "another-client" }],
    ["an expired token", { exp: Math.floor(Date.now() / 1000) - 600 }],
  ] as const) {
    it(`refuses ${name}: error redirect, no user`, async () => {
      tokens.tokenResponse = {
        access_token: "at",
        token_type: "Bearer",
        id_token: await idp.signIdToken(claims({ ...extra, sub: `bad-${name}` })),
      };
      const { location } = await callBack("forged");
      expect(location.pathname).toBe("/oops");
      expect(location.searchParams.get("error")).toBe("unable_to_get_user_info");
      expect(
        await t.auth.$context.adapter.count({
          model: "account",
          where: [{ field: "accountId", value: `bad-${name}` }],
        }),
      ).toBe(0);
    });
  }

  it("does not follow a token endpoint's redirect: error=oidc_endpoint_redirect", async () => {
    const before = tokens.paths.filter((p) => p === "/token").length;
    const { location } = await callBack("bounced");
    expect(location.pathname).toBe("/oops");
    expect(location.searchParams.get("error")).toBe("oidc_endpoint_redirect");
    expect(tokens.paths.filter((p) => p === "/token").length).toBe(before);
  });
});
