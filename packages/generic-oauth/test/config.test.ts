import { describe, expect, it } from "vitest";
import { privateKeyJwt } from "@latchkey/core";
import { GENERIC_OAUTH_ERROR_CODES, genericOAuth, type GenericOAuthConfig } from "../src/index.ts";
import { AUTH, genericInstance } from "./support/instance.ts";

const base: GenericOAuthConfig = {
  providerId: "acme",
  clientId: "cid",
  clientSecret: "secret",
  authorizationUrl: "https://id.acme.test/authorize",
  tokenUrl: "https://id.acme.test/token",
};

describe("configuration checked when genericOAuth() is called", () => {
  it.each<[string, Partial<GenericOAuthConfig>]>([
    ["no endpoints", { authorizationUrl: undefined }],
    ["no token endpoint", { tokenUrl: undefined }],
    ["a relative URL", { userInfoUrl: "/me" }],
    ["a secret with the `none` method", { tokenEndpointAuth: { method: "none" } }],
    [
      "a secret method without a secret",
      { clientSecret: undefined, tokenEndpointAuth: { method: "client_secret_basic" } },
    ],
    ["basic authentication without a secret", { clientSecret: undefined, authentication: "basic" }],
    ["ID-token verification without discovery", { requireIdTokenVerification: true }],
    ["issuer validation without an issuer", { requireIssuerValidation: true }],
    ["a providerId that is no path segment", { providerId: "a/b" }],
    ["no clientId", { clientId: "" }],
  ])("refuses %s with a TypeError", (_name, change) => {
    expect(() => genericOAuth({ config: [{ ...base, ...change }] })).toThrow(TypeError);
  });

  it("accepts private_key_jwt without a secret, and getToken in place of a token URL", () => {
    const jwk = { kty: "RSA", n: "x", e: "AQAB", d: "y" };
    expect(() =>
      genericOAuth({
        config: [
          { ...base, clientSecret: undefined, tokenEndpointAuth: privateKeyJwt({ privateKeyJwk: jwk }) },
          {
            ...base,
            providerId: "custom",
            tokenUrl: undefined,
            getToken: async () => ({ accessToken: "t" }),
          },
        ],
      }),
    ).not.toThrow();
  });
});

describe("registration", () => {
  it("declares its error codes, and serves no route of its own by default", async () => {
    const { auth } = genericInstance({ config: [base] });
    for (const [code, message] of Object.entries(GENERIC_OAUTH_ERROR_CODES))
      expect(auth.$ERROR_CODES[code]).toBe(message);
    expect(Object.keys(auth.api).some((name) => /oauth2/i.test(name))).toBe(false);
  });

  it("puts its providers first and warns when one shadows a social provider", async () => {
    const warnings: string[] = [];
    const { browser } = genericInstance(
      { config: [{ ...base, providerId: "github" }] },
      {
        socialProviders: { github: { clientId: "gh", clientSecret: "gh-secret" } },
        logger: { level: "warn", log: (_level: string, message: string) => void warnings.push(message) },
      },
    );
    const res = await browser.post(`${AUTH}/sign-in/social`, { provider: "github", callbackURL: "/" });
    expect(res.status).toBe(200);
    const url = new URL(((await res.json()) as { url: string }).url);
    expect(url.origin).toBe("https://id.acme.test");
    expect(warnings.some((w) => w.includes('"github" shadows'))).toBe(true);
  });

  it("keeps reserved parameters out of the authorization URL", async () => {
    const { browser } = genericInstance({
      config: [
        {
          ...base,
          authorizationUrlParams: { client_id: "evil", redirect_uri: "https://evil", audience: "api" },
        },
      ],
    });
    const res = await browser.post(`${AUTH}/sign-in/social`, { provider: "acme", callbackURL: "/" });
    const url = new URL(((await res.json()) as { url: string }).url);
    expect(url.searchParams.get("client_id")).toBe("cid");
    expect(url.searchParams.get("redirect_uri")).toBe(`${AUTH}/callback/acme`);
    expect(url.searchParams.get("audience")).toBe("api");
  });

  it("uses a configured redirectURI for the authorization request", async () => {
    const { browser } = genericInstance({ config: [{ ...base, redirectURI: "https://app.test/cb/acme" }] });
    const res = await browser.post(`${AUTH}/sign-in/social`, { provider: "acme", callbackURL: "/" });
    const url = new URL(((await res.json()) as { url: string }).url);
    expect(url.searchParams.get("redirect_uri")).toBe("https://app.test/cb/acme");
  });
});
