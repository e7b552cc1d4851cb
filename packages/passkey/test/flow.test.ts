import { client, type TestAuth } from "@latchkey/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertion, browser, CHALLENGE_COOKIE, ORIGIN, passkeyInstance, register, signInWithPasskey, signUp, SoftwareAuthenticator } from "./instance.ts";

let t: TestAuth;
beforeAll(async () => {
  t = await passkeyInstance("sqlite");
});
afterAll(() => t.close());

describe("register, sign in, list, rename, delete (SQLite)", () => {
  it("stores the passkey as the reference does and signs its user in with it", async () => {
    const b = browser(t);
    const userId = await signUp(b, "flow@example.com");
    const key = new SoftwareAuthenticator({ origin: ORIGIN, transports: ["internal", "hybrid"], backedUp: true });
    const options = await b.get<Record<string, unknown>>("/passkey/generate-register-options?name=My%20key");
    expect(options.status).toBe(200);
    expect(options.json).toMatchObject({
      rp: { name: "Better Auth", id: "localhost" },
      user: { name: "My key", displayName: "flow@example.com" },
      attestation: "none",
      pubKeyCredParams: [{ alg: -8 }, { alg: -7 }, { alg: -257 }],
      authenticatorSelection: { residentKey: "preferred", userVerification: "preferred", requireResidentKey: false },
      excludeCredentials: [],
      timeout: 60000,
    });
    const cookie = options.headers.getSetCookie().find((c) => c.startsWith(`${CHALLENGE_COOKIE}=`));
    expect(cookie).toMatch(/Max-Age=300; Path=\/; HttpOnly; SameSite=Lax/);

    const verified = await b.post<Record<string, unknown>>("/passkey/verify-registration", {
      response: key.register(options.json as never),
      name: "  Laptop  ",
    });
    expect(verified.status, verified.text).toBe(200);
    expect(verified.json).toMatchObject({ name: "Laptop", userId, counter: 0, deviceType: "multiDevice", backedUp: true, transports: "internal,hybrid", aaguid: "00000000-0000-0000-0000-000000000000" });
    const credentialID = Buffer.from(key.credentials[0]!.id).toString("base64url");
    expect(verified.json!.credentialID).toBe(credentialID);
    // publicKey: the COSE key in standard base64.
    expect(verified.json!.publicKey).toBe(Buffer.from(key.credentials[0]!.cosePublicKey).toString("base64"));

    const fresh = client(t.auth, { origin: ORIGIN });
    const signedIn = await signInWithPasskey(fresh, key);
    expect(signedIn.status, signedIn.text).toBe(200);
    expect(signedIn.json!.user.id).toBe(userId);
    expect((await fresh.get<{ user: { id: string } }>("/get-session")).json?.user.id).toBe(userId);

    const listed = await fresh.get<Array<Record<string, unknown>>>("/passkey/list-user-passkeys");
    expect(listed.json).toHaveLength(1);
    const id = listed.json![0]!.id as string;
    const renamed = await fresh.post("/passkey/update-passkey", { id, name: " Work " });
    expect(renamed.json).toMatchObject({ passkey: { id, name: "Work" } });
    expect((await fresh.post("/passkey/delete-passkey", { id })).json).toEqual({ status: true });
    expect((await fresh.get<unknown[]>("/passkey/list-user-passkeys")).json).toEqual([]);
    const gone = await signInWithPasskey(client(t.auth, { origin: ORIGIN }), key);
    expect(gone.status).toBe(401);
    expect(gone.json).toEqual({ code: "PASSKEY_NOT_FOUND", message: "Passkey not found" });
  });

  it("lists the user's passkeys in excludeCredentials and allowCredentials", async () => {
    const b = browser(t);
    await signUp(b, "lists@example.com");
    const key = new SoftwareAuthenticator({ origin: ORIGIN, transports: [] });
    expect((await register(b, key)).status).toBe(200);
    const id = Buffer.from(key.credentials[0]!.id).toString("base64url");
    const creation = await b.get<{ excludeCredentials: unknown[] }>("/passkey/generate-register-options");
    // Stored transports "" are announced without transports.
    expect(creation.json!.excludeCredentials).toEqual([{ id, type: "public-key" }]);
    const request = await b.get<{ allowCredentials: unknown[]; userVerification: string }>("/passkey/generate-authenticate-options");
    expect(request.json).toMatchObject({ allowCredentials: [{ id, type: "public-key" }], userVerification: "preferred" });
    const anonymous = await client(t.auth).get<Record<string, unknown>>("/passkey/generate-authenticate-options");
    expect(anonymous.json!.allowCredentials).toBeUndefined();
  });

  it("refuses a challenge twice, the other ceremony's challenge, and a wrong origin", async () => {
    const b = browser(t);
    await signUp(b, "refusals@example.com");
    const key = new SoftwareAuthenticator({ origin: ORIGIN });
    expect((await register(b, key)).status).toBe(200);
    const { response } = await assertion(b, key);
    const saved = b.jar.header();
    expect((await b.post("/passkey/verify-authentication", { response })).status).toBe(200);
    // Replaying the same cookie and assertion: the challenge is gone.
    const replay = await b.post("/passkey/verify-authentication", { response }, { headers: { cookie: saved! } });
    expect(replay.status).toBe(400);
    expect(replay.json).toEqual({ code: "CHALLENGE_NOT_FOUND", message: "Challenge not found" });
    // A registration challenge does not serve a sign-in (and is used up by trying).
    await b.get("/passkey/generate-register-options");
    const crossed = await b.post("/passkey/verify-authentication", { response });
    expect(crossed.json).toEqual({ code: "CHALLENGE_NOT_FOUND", message: "Challenge not found" });
    // The client data names another origin.
    const options = await b.get<{ challenge: string }>("/passkey/generate-authenticate-options");
    const foreign = key.assert(options.json!, undefined, { origin: "https://evil.example" });
    const refused = await b.post("/passkey/verify-authentication", { response: foreign });
    expect(refused.status).toBe(400);
    expect(refused.json).toEqual({ code: "AUTHENTICATION_FAILED", message: "Authentication failed" });
    // No Origin header and no origin option: the reference's bare message.
    const noOrigin = client(t.auth);
    const missing = await noOrigin.post("/passkey/verify-authentication", { response });
    expect(missing.status).toBe(400);
    expect(missing.json).toEqual({ message: "origin missing" });
  });

  it("refuses a counter that does not rise (a cloned authenticator) and keeps the higher value", async () => {
    const b = browser(t);
    await signUp(b, "counter@example.com");
    const key = new SoftwareAuthenticator({ origin: ORIGIN });
    expect((await register(b, key)).status).toBe(200);
    key.credentials[0]!.step = 1;
    expect((await signInWithPasskey(b, key)).status).toBe(200);
    expect((await signInWithPasskey(b, key)).status).toBe(200);
    const stored = () => t.auth.$context.adapter.findOne<{ counter: number }>({ model: "passkey", where: [{ field: "credentialID", value: Buffer.from(key.credentials[0]!.id).toString("base64url") }] });
    expect((await stored())!.counter).toBe(2);
    const { response } = await assertion(b, key, 2);
    const clone = await b.post("/passkey/verify-authentication", { response });
    expect(clone.status).toBe(400);
    expect(clone.json).toEqual({ code: "AUTHENTICATION_FAILED", message: "Authentication failed" });
    expect((await stored())!.counter).toBe(2);
  });

  it("refuses registration without a session, and a challenge of another user", async () => {
    const anonymous = browser(t);
    const refused = await anonymous.get("/passkey/generate-register-options");
    expect(refused.status).toBe(401);
    const a = browser(t);
    await signUp(a, "owner-a@example.com");
    const options = await a.get<{ challenge: string; rp: { id: string }; user: { id: string } }>("/passkey/generate-register-options");
    const b = browser(t);
    await signUp(b, "owner-b@example.com");
    // b's session with a's challenge cookie.
    const challenge = a.jar.values.get(CHALLENGE_COOKIE)!;
    b.jar.values.set(CHALLENGE_COOKIE, challenge);
    const key = new SoftwareAuthenticator({ origin: ORIGIN });
    const answer = await b.post("/passkey/verify-registration", { response: key.register(options.json!) });
    expect(answer.status).toBe(401);
    expect(answer.json).toEqual({ code: "YOU_ARE_NOT_ALLOWED_TO_REGISTER_THIS_PASSKEY", message: "You are not allowed to register this passkey" });
  });

  it("answers 404 for an unknown passkey and 401 for another user's", async () => {
    const a = browser(t);
    await signUp(a, "mine-a@example.com");
    const key = new SoftwareAuthenticator({ origin: ORIGIN });
    const id = (await register(a, key)).json!.id as string;
    const b = browser(t);
    await signUp(b, "mine-b@example.com");
    expect((await b.post("/passkey/delete-passkey", { id: "nope" })).json).toEqual({ code: "PASSKEY_NOT_FOUND", message: "Passkey not found" });
    const del = await b.post("/passkey/delete-passkey", { id });
    expect([del.status, del.text]).toEqual([401, ""]);
    const upd = await b.post("/passkey/update-passkey", { id, name: "x" });
    expect([upd.status, upd.json]).toEqual([401, { code: "YOU_ARE_NOT_ALLOWED_TO_REGISTER_THIS_PASSKEY", message: "You are not allowed to register this passkey" }]);
    expect((await a.get<unknown[]>("/passkey/list-user-passkeys")).json).toHaveLength(1);
  });

  it("asks for a fresh session to register (403 SESSION_NOT_FRESH), not to sign in or list", async () => {
    const b = browser(t);
    const userId = await signUp(b, "stale@example.com");
    const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000);
    await t.auth.$context.adapter.updateMany({ model: "session", where: [{ field: "userId", value: userId }], update: { createdAt: twoDaysAgo } });
    const stale = await b.get("/passkey/generate-register-options");
    expect([stale.status, (stale.json as { code: string }).code]).toEqual([403, "SESSION_NOT_FRESH"]);
    expect((await b.post("/passkey/verify-registration", { response: {} })).status).toBe(403);
    expect((await b.get("/passkey/list-user-passkeys")).status).toBe(200);
  });
});
