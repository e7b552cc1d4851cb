import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { CLIENT_ID, startIdP, type TestIdP } from "@latchkey/test-support";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { oneTapInstance } from "./instance.ts";

let idp: TestIdP;
beforeAll(async () => {
  idp = await startIdP(["http://localhost:3000/api/auth/callback/google"]);
});
afterAll(() => idp.close());

const claims = { sub: "google-sub-1", email: "ada@example.com", email_verified: true, name: "Ada" };
const now = (): number => Math.floor(Date.now() / 1000);

async function expectInvalid(response: Response): Promise<void> {
  expect(response.status).toBe(400);
  expect(await response.json()).toEqual({ message: "invalid id token" });
  expect(response.headers.getSetCookie()).toEqual([]);
}

describe("One Tap token checks: each failure is 400 'invalid id token' and no session", () => {
  it("refuses a token signed by a key outside the key set", async () => {
    const { privateKey } = await generateKeyPair("RS256");
    const forged = await new SignJWT({ ...claims, iss: idp.issuer, aud: CLIENT_ID })
      .setProtectedHeader({ alg: "RS256", kid: "test-key-1" })
      .setIssuedAt()
      .setExpirationTime("5m")
      .sign(privateKey);
    const { oneTapWith, db } = oneTapInstance(idp);
    await expectInvalid(await oneTapWith(forged));
    expect(await db.count({ model: "user" })).toBe(0);
  });

  it("refuses a token whose signature was tampered with (payload swapped)", async () => {
    const good = await idp.signIdToken(claims);
    const [header, , signature] = good.split(".");
    const payload = Buffer.from(
      JSON.stringify({
        ...claims,
        sub: "someone-else",
        iss: idp.issuer,
        aud: CLIENT_ID,
        iat: now(),
        exp: now() + 300,
      }),
    ).toString("base64url");
    await expectInvalid(await oneTapInstance(idp).oneTapWith(`${header}.${payload}.${signature}`));
  });

  it("refuses another audience", async () => {
    await expectInvalid(
      await oneTapInstance(idp).oneTapWith(await idp.signIdToken({ ...claims, aud: "another-client" })),
    );
  });

  it("refuses an azp naming another client", async () => {
    await expectInvalid(
      await oneTapInstance(idp).oneTapWith(await idp.signIdToken({ ...claims, azp: "another-client" })),
    );
  });

  it("refuses another issuer", async () => {
    await expectInvalid(
      await oneTapInstance(idp).oneTapWith(await idp.signIdToken({ ...claims, iss: "https://evil.example" })),
    );
  });

  it("refuses an expired token", async () => {
    const token = await idp.signIdToken({ ...claims, iat: now() - 600, exp: now() - 60 });
    await expectInvalid(await oneTapInstance(idp).oneTapWith(token));
  });

  it("refuses a token issued more than an hour ago even if not expired", async () => {
    const token = await idp.signIdToken({ ...claims, iat: now() - 2 * 3600, exp: now() + 300 });
    await expectInvalid(await oneTapInstance(idp).oneTapWith(token));
  });

  it("refuses RS256's key under another algorithm (PS256): Google signs with RS256 only", async () => {
    const token = await idp.signIdToken(claims, { alg: "PS256" });
    await expectInvalid(await oneTapInstance(idp).oneTapWith(token));
  });

  it("refuses an unsigned token (alg none)", async () => {
    const encode = (value: object): string => Buffer.from(JSON.stringify(value)).toString("base64url");
    const token = `${encode({ alg: "none" })}.${encode({ ...claims, iss: idp.issuer, aud: CLIENT_ID, iat: now(), exp: now() + 300 })}.`;
    await expectInvalid(await oneTapInstance(idp).oneTapWith(token));
  });

  it("refuses a token without sub", async () => {
    const { sub: _sub, ...rest } = claims;
    await expectInvalid(await oneTapInstance(idp).oneTapWith(await idp.signIdToken(rest)));
  });

  it("refuses strings that are no JWT", async () => {
    const { oneTapWith } = oneTapInstance(idp);
    for (const junk of ["", "abc", "a.b.c", "%%%.%%%.%%%"]) await expectInvalid(await oneTapWith(junk));
  });

  it("answers 400, not 500, when the key set cannot be fetched", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const { oneTapWith } = oneTapInstance(idp, {}, { jwksURL: `http://127.0.0.1:${port}/jwks` });
    await expectInvalid(await oneTapWith(await idp.signIdToken(claims)));
  });
});

describe("One Tap token checks: email", () => {
  it("answers 400 'Email not available in token' for a valid token without email (spec)", async () => {
    const { email: _email, ...rest } = claims;
    const { oneTapWith, db } = oneTapInstance(idp);
    const response = await oneTapWith(await idp.signIdToken(rest));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ message: "Email not available in token" });
    expect(await db.count({ model: "user" })).toBe(0);
  });

  it("treats an empty or non-string email as missing", async () => {
    const { oneTapWith } = oneTapInstance(idp);
    for (const email of ["", 42]) {
      const response = await oneTapWith(await idp.signIdToken({ ...claims, email }));
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ message: "Email not available in token" });
    }
  });
});

describe("One Tap token checks: request body", () => {
  it("answers 400 VALIDATION_ERROR without idToken", async () => {
    const response = await oneTapInstance(idp).post("/one-tap/callback", {});
    expect(response.status).toBe(400);
    expect(((await response.json()) as { code: string }).code).toBe("VALIDATION_ERROR");
  });

  it("answers 400 VALIDATION_ERROR for a non-string idToken", async () => {
    const response = await oneTapInstance(idp).post("/one-tap/callback", { idToken: 12 });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { code: string }).code).toBe("VALIDATION_ERROR");
  });

  it("refuses an untrusted callbackURL when origin checks are on", async () => {
    const { oneTapWith } = oneTapInstance(idp, { advanced: { disableOriginCheck: false } });
    const response = await oneTapWith(await idp.signIdToken(claims), {
      callbackURL: "https://evil.example/next",
    });
    expect(response.status).toBe(403);
    expect(((await response.json()) as { code: string }).code).toBe("INVALID_CALLBACK_URL");
  });
});

describe("One Tap token checks: hosted domain (socialProviders.google.hd)", () => {
  const withHd = (hd: string) =>
    oneTapInstance(idp, { socialProviders: { google: { clientId: CLIENT_ID, clientSecret: "unused", hd } } });

  it("accepts the configured domain", async () => {
    expect(
      (await withHd("example.com").oneTapWith(await idp.signIdToken({ ...claims, hd: "example.com" })))
        .status,
    ).toBe(200);
  });

  it("refuses another domain and a consumer account without hd", async () => {
    const { oneTapWith } = withHd("example.com");
    await expectInvalid(await oneTapWith(await idp.signIdToken({ ...claims, hd: "other.example" })));
    await expectInvalid(await oneTapWith(await idp.signIdToken(claims)));
  });

  it("'*' accepts any Workspace domain but no consumer account", async () => {
    const { oneTapWith } = withHd("*");
    expect((await oneTapWith(await idp.signIdToken({ ...claims, hd: "any.example" }))).status).toBe(200);
    await expectInvalid(await oneTapWith(await idp.signIdToken({ ...claims, sub: "consumer" })));
  });

  it("reads hd from a provider object's options", async () => {
    const provider = {
      id: "google",
      name: "Google",
      createAuthorizationURL: () => new URL("https://accounts.google.com/o/oauth2/v2/auth"),
      validateAuthorizationCode: () => Promise.resolve(null),
      getUserInfo: () => Promise.resolve(null),
      options: { clientId: CLIENT_ID, hd: "example.com" },
    };
    const { oneTapWith } = oneTapInstance(idp, { socialProviders: { google: provider as never } });
    await expectInvalid(await oneTapWith(await idp.signIdToken({ ...claims, hd: "other.example" })));
    expect((await oneTapWith(await idp.signIdToken({ ...claims, hd: "example.com" }))).status).toBe(200);
  });
});

describe("One Tap defaults: Google's issuers", () => {
  let jwksServer: Server;
  let jwksURL: string;
  let sign: (claims: Record<string, unknown>) => Promise<string>;
  beforeAll(async () => {
    // A local stand-in for https://www.googleapis.com/oauth2/v3/certs.
    const { privateKey, publicKey } = await generateKeyPair("RS256");
    const jwk = { ...(await exportJWK(publicKey)), kid: "google-like", alg: "RS256", use: "sig" };
    jwksServer = createServer((_req, res) => {
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ keys: [jwk] }));
    });
    await new Promise<void>((resolve) => jwksServer.listen(0, "127.0.0.1", resolve));
    jwksURL = `http://127.0.0.1:${(jwksServer.address() as AddressInfo).port}/oauth2/v3/certs`;
    sign = (c) =>
      new SignJWT({ aud: CLIENT_ID, iat: now(), exp: now() + 300, ...c })
        .setProtectedHeader({ alg: "RS256", kid: "google-like" })
        .sign(privateKey);
  });
  afterAll(() => new Promise<void>((resolve) => jwksServer.close(() => resolve())));

  it("accepts both of Google's iss spellings and nothing else", async () => {
    const { oneTapWith } = oneTapInstance(idp, {}, { jwksURL, issuer: undefined });
    expect((await oneTapWith(await sign({ ...claims, iss: "https://accounts.google.com" }))).status).toBe(
      200,
    );
    expect((await oneTapWith(await sign({ ...claims, iss: "accounts.google.com" }))).status).toBe(200);
    await expectInvalid(
      await oneTapWith(await sign({ ...claims, iss: "https://accounts.google.com.evil.example" })),
    );
  });
});

describe("oneTap() options", () => {
  it("refuses a jwksURL that is no URL at start-up", async () => {
    const { oneTap } = await import("../src/index.ts");
    expect(() => oneTap({ jwksURL: "not a url" })).toThrow(TypeError);
  });
});
