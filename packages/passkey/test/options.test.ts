import { client, testAuth, type TestAuth } from "@latchkey/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getAuthenticatorName, passkey } from "../src/index.ts";
import { browser, passkeyInstance, register, signInWithPasskey, signUp, SoftwareAuthenticator } from "./instance.ts";

const APP = "https://app.example.com";

describe("options under the reference's names", () => {
  let t: TestAuth;
  const extensionCalls: string[] = [];
  beforeAll(async () => {
    t = await passkeyInstance("sqlite", {
      rpID: "example.com",
      rpName: "Example",
      origin: [APP, "https://other.example.com"],
      authenticatorSelection: { residentKey: "required", userVerification: "required" },
      advanced: { webAuthnChallengeCookie: "my-challenge" },
      registration: { extensions: { credProps: true } },
      authentication: {
        extensions: ({ ctx }) => {
          extensionCalls.push(ctx.path);
          return { appid: "https://example.com" };
        },
      },
      schema: { passkey: { modelName: "webauthn_credentials", fields: { credentialID: "credential_id" } } },
    });
  });
  afterAll(() => t.close());

  it("uses rpID, rpName, origin, authenticatorSelection, extensions, the cookie name and the table names", async () => {
    // The browser's Origin does not matter when `origin` is set: the client data must name one of them.
    const b = client(t.auth, { origin: "http://localhost:3000" });
    await signUp(b, "options@example.com");
    const options = await b.get<Record<string, unknown>>("/passkey/generate-register-options?authenticatorAttachment=cross-platform");
    expect(options.json).toMatchObject({
      rp: { id: "example.com", name: "Example" },
      authenticatorSelection: { residentKey: "required", requireResidentKey: true, userVerification: "required", authenticatorAttachment: "cross-platform" },
      extensions: { credProps: true },
    });
    expect(options.headers.getSetCookie().some((c) => c.startsWith("better-auth.my-challenge="))).toBe(true);
    const key = new SoftwareAuthenticator({ origin: "https://other.example.com" });
    const registered = await b.post("/passkey/verify-registration", { response: key.register(options.json as never) });
    expect(registered.status, registered.text).toBe(200);
    // The renamed table and column hold the row.
    const sqlite = t.database.driver as { prepare(sql: string): { all(): unknown[] } };
    expect(sqlite.prepare("select credential_id from webauthn_credentials").all()).toEqual([
      { credential_id: Buffer.from(key.credentials[0]!.id).toString("base64url") },
    ]);
    const request = await b.get<Record<string, unknown>>("/passkey/generate-authenticate-options");
    expect(request.json).toMatchObject({ rpId: "example.com", extensions: { appid: "https://example.com" } });
    expect(extensionCalls).toEqual(["/passkey/generate-authenticate-options"]);
    const wrong = new SoftwareAuthenticator({ origin: "http://localhost:3000" });
    wrong.credentials.push(...key.credentials);
    const refused = await signInWithPasskey(b, wrong);
    expect(refused.json).toMatchObject({ code: "AUTHENTICATION_FAILED" });
    expect((await signInWithPasskey(b, key)).status).toBe(200);
  });
});

describe("option checks at start-up", () => {
  it("refuses an unusable cookie name or an empty origin list", () => {
    expect(() => passkey({ advanced: { webAuthnChallengeCookie: "a b" } })).toThrow(TypeError);
    expect(() => passkey({ origin: [] })).toThrow(TypeError);
  });
});

describe("rpID from baseURL", () => {
  it("is the hostname of a configured baseURL", async () => {
    const t = await passkeyInstance("sqlite");
    try {
      const b = browser(t);
      await signUp(b, "rp@example.com");
      expect((await register(b, new SoftwareAuthenticator({ origin: "http://localhost:3000" }))).status).toBe(200);
      expect((await b.get<{ rpId: string }>("/passkey/generate-authenticate-options")).json?.rpId).toBe("localhost");
    } finally {
      await t.close();
    }
  });
});

describe("getAuthenticatorName", () => {
  it("names known AAGUIDs, ignoring case and spaces, and nothing for unknown or all-zero ones", () => {
    expect(getAuthenticatorName(" EA9B8D66-4D01-1D21-3CE4-B6B48CB575D4 ")).toBe("Google Password Manager");
    expect(getAuthenticatorName("00000000-0000-0000-0000-000000000000")).toBeUndefined();
    expect(getAuthenticatorName("toString")).toBeUndefined();
    expect(getAuthenticatorName(null)).toBeUndefined();
  });
});

describe("the challenge cookie on https", () => {
  it("is __Secure- prefixed and Secure, and read back under that name", async () => {
    const origin = "https://auth.example.com";
    const t = await testAuth({ baseURL: origin, emailAndPassword: { enabled: true }, plugins: [passkey()] }, { db: "sqlite" });
    try {
      const b = client(t.auth, { origin });
      await signUp(b, "secure@example.com");
      const options = await b.get<{ challenge: string; rp: { id: string }; user: { id: string } }>("/passkey/generate-register-options");
      const line = options.headers.getSetCookie().find((c) => c.startsWith("__Secure-better-auth.better-auth-passkey="));
      expect(line).toMatch(/; Secure/);
      expect(options.json!.rp.id).toBe("auth.example.com");
      const key = new SoftwareAuthenticator({ origin });
      const verified = await b.post("/passkey/verify-registration", { response: key.register(options.json!) });
      expect(verified.status, verified.text).toBe(200);
    } finally {
      await t.close();
    }
  });
});
