import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SignJWT } from "jose";
import { CLIENT_ID, CLIENT_SECRET, type TestIdP } from "@latchkey/test-support";
import { AUTH, sessionOf, socialInstance, startTestIdP } from "../support/social.ts";

let idp: TestIdP;
beforeAll(async () => {
  idp = await startTestIdP();
});
afterAll(() => idp.close());

const claims = { sub: "alice-sub", email: "alice@example.com", email_verified: true, name: "Alice" };

describe("POST /sign-in/social with an ID token", () => {
  it("a token signed by the IdP for this client signs the user in (no redirect)", async () => {
    const t = socialInstance(idp);
    const token = await idp.signIdToken({ ...claims, nonce: "n-1" });
    const res = await t.browser.post(`${AUTH}/sign-in/social`, {
      provider: "idp",
      idToken: { token, nonce: "n-1" },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { redirect: boolean; token: string; user: { email: string } };
    expect(body).toMatchObject({ redirect: false, user: { email: "alice@example.com", name: "Alice" } });
    expect(body.token).toMatch(/^[A-Za-z0-9]{32}$/);
    expect((await sessionOf(t.browser))?.user.email).toBe("alice@example.com");
    expect(t.store.account![0]).toMatchObject({ providerId: "idp", accountId: "alice-sub", idToken: token });
  });

  const now = () => Math.floor(Date.now() / 1000);
  const forged: Array<[string, () => Promise<string>]> = [
    ["another audience", () => idp.signIdToken({ ...claims, aud: "someone-else" })],
    ["another issuer", () => idp.signIdToken({ ...claims, iss: "https://evil.example" })],
    ["an expired token", () => idp.signIdToken({ ...claims, iat: now() - 3600, exp: now() - 600 })],
    ["an algorithm the provider does not advertise (PS256)", () => idp.signIdToken(claims, { alg: "PS256" })],
    ["an unknown key id", () => idp.signIdToken(claims, { kid: "not-a-key" })],
    ["another nonce than the client says it sent", () => idp.signIdToken({ ...claims, nonce: "other" })],
    [
      "HS256 signed with the client secret",
      () =>
        new SignJWT({ ...claims, iss: idp.issuer, aud: CLIENT_ID, iat: now(), exp: now() + 60 })
          .setProtectedHeader({ alg: "HS256" })
          .sign(new TextEncoder().encode(CLIENT_SECRET)),
    ],
    [
      "alg none",
      async () =>
        `${Buffer.from('{"alg":"none"}').toString("base64url")}.${Buffer.from(
          JSON.stringify({ ...claims, iss: idp.issuer, aud: CLIENT_ID, iat: now(), exp: now() + 60 }),
        ).toString("base64url")}.`,
    ],
  ];

  for (const [name, make] of forged) {
    it(`refuses ${name}: 401 INVALID_TOKEN, nothing written`, async () => {
      const t = socialInstance(idp);
      const res = await t.post("/sign-in/social", {
        provider: "idp",
        idToken: { token: await make(), nonce: "expected" },
      });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ code: "INVALID_TOKEN", message: "Invalid token" });
      expect(t.count("user")).toBe(0);
      expect(t.count("account")).toBe(0);
    });
  }

  it("a token without email: 401 USER_EMAIL_NOT_FOUND; ID-token sign-in disabled: 404 ID_TOKEN_NOT_SUPPORTED", async () => {
    const t = socialInstance(idp);
    const token = await idp.signIdToken({ sub: "x" });
    const res = await t.post("/sign-in/social", { provider: "idp", idToken: { token } });
    expect(await res.json()).toEqual({ code: "USER_EMAIL_NOT_FOUND", message: "User email not found" });
    const off = socialInstance(idp, {}, { disableIdTokenSignIn: true });
    const refused = await off.post("/sign-in/social", {
      provider: "idp",
      idToken: { token: await idp.signIdToken(claims) },
    });
    expect(refused.status).toBe(404);
    expect((await refused.json()).code).toBe("ID_TOKEN_NOT_SUPPORTED");
  });
});
