import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT, type JWTPayload } from "jose";
import {
  createAuthorizationURL,
  generateCodeChallenge,
  mergeScopes,
  parseStoredScopes,
  privateKeyJwt,
  refreshAccessToken,
  validateAuthorizationCode,
  verifyIdToken,
  OAuthTokenError,
} from "../../src/index.ts";
import { applyClientAuth } from "../../src/oauth2/client-auth.ts";

describe("PKCE (RFC 7636 Appendix B vector)", () => {
  it("S256 of the RFC's verifier is the RFC's challenge", async () => {
    expect(await generateCodeChallenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")).toBe(
      "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
    );
  });
});

describe("createAuthorizationURL", () => {
  const base = {
    authorizationEndpoint: "https://idp.test/authorize?tenant=a",
    clientId: "client",
    redirectURI: "https://app.test/api/auth/callback/idp",
    state: "s".repeat(32),
    codeVerifier: "v".repeat(128),
    scopes: ["openid", "email"],
    nonce: "n".repeat(32),
  };

  it("sets the protocol parameters, keeps the endpoint's own query, sends S256", async () => {
    const url = await createAuthorizationURL(base);
    const q = url.searchParams;
    expect(q.get("tenant")).toBe("a");
    expect(q.get("response_type")).toBe("code");
    expect(q.get("client_id")).toBe("client");
    expect(q.get("scope")).toBe("openid email");
    expect(q.get("code_challenge_method")).toBe("S256");
    expect(q.get("code_challenge")).toBe(await generateCodeChallenge("v".repeat(128)));
    expect(q.get("nonce")).toBe("n".repeat(32));
  });

  it("reserved parameters cannot be overridden by extra parameters (spec, Social sign-in 7)", async () => {
    const hostile = {
      client_id: "evil",
      redirect_uri: "https://evil.test/cb",
      state: "x",
      scope: "admin",
      nonce: "x",
      code_challenge: "x",
      code_challenge_method: "plain",
      response_type: "token",
      prompt: "consent",
    };
    const url = await createAuthorizationURL({ ...base, additionalParams: hostile });
    const q = url.searchParams;
    expect(q.get("client_id")).toBe("client");
    expect(q.get("redirect_uri")).toBe(base.redirectURI);
    expect(q.get("state")).toBe(base.state);
    expect(q.get("scope")).toBe("openid email");
    expect(q.get("response_type")).toBe("code");
    expect(q.get("code_challenge_method")).toBe("S256");
    expect(q.getAll("client_id")).toHaveLength(1);
    expect(q.get("prompt")).toBe("consent");
  });
});

describe("token endpoint client authentication", () => {
  it("client_secret_basic form-encodes id and secret before base64 (RFC 6749 §2.3.1)", async () => {
    const body = new URLSearchParams();
    const headers: Record<string, string> = {};
    await applyClientAuth(
      body,
      headers,
      { clientId: "a b", clientSecret: "p:w+d", tokenEndpointAuth: { method: "client_secret_basic" } },
      "https://t",
    );
    expect(headers.authorization).toBe(`Basic ${Buffer.from("a+b:p%3Aw%2Bd").toString("base64")}`);
    expect(body.has("client_secret")).toBe(false);
  });

  it("client_secret_post, none and misconfigurations", async () => {
    const body = new URLSearchParams();
    await applyClientAuth(body, {}, { clientId: "c", clientSecret: "s" }, "https://t");
    expect(Object.fromEntries(body)).toEqual({ client_id: "c", client_secret: "s" });
    const pub = new URLSearchParams();
    await applyClientAuth(pub, {}, { clientId: "c" }, "https://t");
    expect(Object.fromEntries(pub)).toEqual({ client_id: "c" });
    await expect(
      applyClientAuth(
        new URLSearchParams(),
        {},
        { clientId: "c", tokenEndpointAuth: { method: "client_secret_basic" } },
        "t",
      ),
    ).rejects.toThrow(TypeError);
    await expect(
      applyClientAuth(
        new URLSearchParams(),
        {},
        { clientId: "c", clientSecret: "s", tokenEndpointAuth: { method: "none" } },
        "t",
      ),
    ).rejects.toThrow(TypeError);
  });

  it("private_key_jwt signs an RFC 7523 assertion", async () => {
    const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
    const auth = privateKeyJwt({
      privateKeyJwk: { ...(await exportJWK(privateKey)), kid: "k" },
      algorithm: "ES256",
    });
    const body = new URLSearchParams({ grant_type: "authorization_code" });
    await applyClientAuth(body, {}, { clientId: "c", tokenEndpointAuth: auth }, "https://idp.test/token");
    expect(body.get("client_assertion_type")).toBe("urn:ietf:params:oauth:client-assertion-type:jwt-bearer");
    const jwks = createLocalJWKSet({ keys: [{ ...(await exportJWK(publicKey)), kid: "k" }] });
    const { jwtVerify } = await import("jose");
    const { payload } = await jwtVerify(body.get("client_assertion")!, jwks, {
      audience: "https://idp.test/token",
      issuer: "c",
    });
    expect(payload.sub).toBe("c");
    expect(typeof payload.jti).toBe("string");
  });
});

describe("token requests against a local token endpoint", () => {
  let url = "";
  const seen: Array<{ headers: IncomingMessage["headers"]; body: URLSearchParams }> = [];
  let answer: (res: ServerResponse) => void = () => {};
  const server = createServer((req, res) => {
    let text = "";
    req.on("data", (c: Buffer) => (text += c.toString()));
    req.on("end", () => {
      seen.push({ headers: req.headers, body: new URLSearchParams(text) });
      answer(res);
    });
  });
  beforeAll(async () => {
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/token`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));
  const json = (status: number, data: unknown) => (res: ServerResponse) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(data));
  };

  it("exchanges a code with the verifier; extra params cannot replace protocol ones", async () => {
    answer = json(200, {
      access_token: "at",
      token_type: "Bearer",
      expires_in: "3600",
      refresh_token: "rt",
      scope: "openid email",
      id_token: "x.y.z",
    });
    const tokens = await validateAuthorizationCode({
      tokenEndpoint: url,
      clientId: "c",
      clientSecret: "s",
      code: "the-code",
      redirectURI: "https://app/cb",
      codeVerifier: "verifier",
      additionalParams: { code: "other", client_id: "evil", audience: "api" },
    });
    expect(tokens).toMatchObject({
      accessToken: "at",
      refreshToken: "rt",
      scopes: ["openid", "email"],
      idToken: "x.y.z",
    });
    expect(tokens.accessTokenExpiresAt!.getTime()).toBeGreaterThan(Date.now() + 3590_000);
    const sent = seen.at(-1)!.body;
    expect(Object.fromEntries(sent)).toEqual({
      audience: "api",
      grant_type: "authorization_code",
      code: "the-code",
      redirect_uri: "https://app/cb",
      code_verifier: "verifier",
      client_id: "c",
      client_secret: "s",
    });
  });

  it("an error answer throws OAuthTokenError with the server's code and no token in the message", async () => {
    answer = json(400, { error: "invalid_grant", error_description: "bad" });
    const error = await refreshAccessToken({
      tokenEndpoint: url,
      clientId: "c",
      refreshToken: "secret-refresh-token",
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OAuthTokenError);
    expect((error as OAuthTokenError).error).toBe("invalid_grant");
    expect(String((error as Error).message)).not.toContain("secret-refresh-token");
  });

  it("a 200 without access_token, and a redirect, are refused (the redirect is not followed)", async () => {
    answer = json(200, { token_type: "Bearer" });
    await expect(
      refreshAccessToken({ tokenEndpoint: url, clientId: "c", refreshToken: "r" }),
    ).rejects.toThrow(OAuthTokenError);
    answer = (res) => {
      res.writeHead(307, { location: "http://169.254.169.254/latest" });
      res.end();
    };
    const before = seen.length;
    await expect(
      refreshAccessToken({ tokenEndpoint: url, clientId: "c", refreshToken: "r" }),
    ).rejects.toThrow(/redirect/);
    expect(seen.length).toBe(before + 1);
  });
});

describe("verifyIdToken (OIDC Core §3.1.3.7)", () => {
  let jwks: ReturnType<typeof createLocalJWKSet>;
  let sign: (claims: JWTPayload, alg?: string) => Promise<string>;
  beforeAll(async () => {
    const rsa = await generateKeyPair("RS256", { extractable: true });
    jwks = createLocalJWKSet({ keys: [{ ...(await exportJWK(rsa.publicKey)), kid: "k" }] });
    sign = async (claims, alg = "RS256") => {
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({ iss: "https://idp", aud: "client", sub: "u1", iat: now, exp: now + 60, ...claims })
        .setProtectedHeader({ alg, kid: "k" })
        .sign(rsa.privateKey);
    };
  });
  const expect_ = { issuer: "https://idp", audience: "client" };

  it("accepts a good token and checks the nonce", async () => {
    const token = await sign({ nonce: "n1" });
    expect(await verifyIdToken(token, { jwks, ...expect_, nonce: "n1" })).toMatchObject({ sub: "u1" });
    expect(await verifyIdToken(token, { jwks, ...expect_, nonce: "n2" })).toBeNull();
  });

  it("refuses wrong iss, aud, azp, expiry, missing sub and a disallowed algorithm", async () => {
    const now = Math.floor(Date.now() / 1000);
    expect(await verifyIdToken(await sign({ iss: "https://other" }), { jwks, ...expect_ })).toBeNull();
    expect(await verifyIdToken(await sign({ aud: "someone-else" }), { jwks, ...expect_ })).toBeNull();
    expect(
      await verifyIdToken(await sign({ aud: ["client", "x"], azp: "x" }), { jwks, ...expect_ }),
    ).toBeNull();
    expect(
      await verifyIdToken(await sign({ exp: now - 60, iat: now - 120 }), { jwks, ...expect_ }),
    ).toBeNull();
    expect(await verifyIdToken(await sign({ sub: undefined }), { jwks, ...expect_ })).toBeNull();
    expect(await verifyIdToken(await sign({}), { jwks, ...expect_, algorithms: ["ES256"] })).toBeNull();
    const unsigned = `${Buffer.from('{"alg":"none"}').toString("base64url")}.${Buffer.from(JSON.stringify({ iss: "https://idp", aud: "client", sub: "u", iat: now, exp: now + 60 })).toString("base64url")}.`;
    expect(await verifyIdToken(unsigned, { jwks, ...expect_ })).toBeNull();
  });
});

describe("stored scopes", () => {
  it("reads comma- and space-separated rows; merging keeps order and drops duplicates", () => {
    expect(parseStoredScopes("openid,email")).toEqual(["openid", "email"]);
    expect(parseStoredScopes("openid email profile")).toEqual(["openid", "email", "profile"]);
    expect(parseStoredScopes(null)).toEqual([]);
    expect(mergeScopes("openid email", ["email", "repo"])).toBe("openid,email,repo");
  });
});
