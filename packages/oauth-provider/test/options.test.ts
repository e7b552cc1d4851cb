import { describe, expect, it } from "vitest";
import { oauthProvider, type OAuthOptions } from "../src/index.ts";

const base: OAuthOptions = { loginPage: "/login", consentPage: "/consent" };

describe("oauthProvider options", () => {
  it("resolves the reference's defaults", () => {
    const { options } = oauthProvider(base);
    expect(options).toMatchObject({
      scopes: ["openid", "profile", "email", "offline_access"],
      grantTypes: ["authorization_code", "client_credentials", "refresh_token"],
      codeExpiresIn: 600,
      accessTokenExpiresIn: 3600,
      m2mAccessTokenExpiresIn: 3600,
      idTokenExpiresIn: 36000,
      refreshTokenExpiresIn: 2592000,
      refreshTokenReuseInterval: 0,
      storeClientSecret: "hashed",
      storeTokens: "hashed",
    });
  });

  it("misconfiguration is a TypeError at start-up", () => {
    expect(() => oauthProvider({ consentPage: "/c" } as OAuthOptions)).toThrow(TypeError);
    expect(() => oauthProvider({ ...base, clientRegistrationAllowedScopes: ["admin"] })).toThrow("clientRegistrationAllowedScope admin not found in scopes");
    expect(() => oauthProvider({ ...base, grantTypes: ["refresh_token"] })).toThrow("refresh_token grant requires authorization_code grant");
    expect(() => oauthProvider({ ...base, accessTokenExpiresIn: -1 })).toThrow(TypeError);
  });

  it("secret storage the reference refuses to pair is refused; extensions are accepted", () => {
    for (const extra of [{ storeClientSecret: "encrypted" }, { disableJwtPlugin: true, storeClientSecret: "hashed" }]) {
      expect(() => oauthProvider({ ...base, ...(extra as object) })).toThrow(TypeError);
    }
    expect(oauthProvider({ ...base, extensions: [{}] }).options.extensions).toEqual([{}]);
  });

  it("needs the jwt plugin", () => {
    expect(oauthProvider(base).requires).toEqual(["jwt"]);
  });
});
