import { client, type DatabaseKind, type TestAuth } from "@latchkey/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertion, browser, ORIGIN, passkeyInstance, register, signInWithPasskey, signUp, SoftwareAuthenticator } from "./instance.ts";

const KINDS: DatabaseKind[] = ["sqlite", "postgres", "mysql"];

describe.each(KINDS)("single-use challenges and counters on %s", (kind) => {
  let t: TestAuth;
  beforeAll(async () => {
    t = await passkeyInstance(kind);
  });
  afterAll(() => t.close());

  it("registers, signs in, renames and deletes", async () => {
    const b = browser(t);
    const userId = await signUp(b, `flow-${kind}@example.com`);
    const key = new SoftwareAuthenticator({ origin: ORIGIN, transports: ["usb", "nfc"] });
    const registered = await register(b, key, { name: "Key" });
    expect(registered.status, registered.text).toBe(200);
    expect(registered.json).toMatchObject({ userId, name: "Key", counter: 0, backedUp: false, deviceType: "singleDevice", transports: "usb,nfc" });
    const signedIn = await signInWithPasskey(client(t.auth, { origin: ORIGIN }), key);
    expect(signedIn.status, signedIn.text).toBe(200);
    expect(signedIn.json!.user.id).toBe(userId);
    const id = registered.json!.id as string;
    expect((await b.post("/passkey/update-passkey", { id, name: "Renamed" })).json).toMatchObject({ passkey: { name: "Renamed" } });
    expect((await b.post("/passkey/delete-passkey", { id })).json).toEqual({ status: true });
  });

  it("redeems one authentication challenge once among 10 parallel requests", async () => {
    const b = browser(t);
    await signUp(b, `race-${kind}@example.com`);
    const key = new SoftwareAuthenticator({ origin: ORIGIN });
    expect((await register(b, key)).status).toBe(200);
    const { response } = await assertion(b, key);
    const cookie = b.jar.header()!;
    const sessionsBefore = await t.auth.$context.adapter.count({ model: "session" });
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        client(t.auth, { origin: ORIGIN }).post("/passkey/verify-authentication", { response }, { headers: { cookie } }),
      ),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, ...Array(9).fill(400)]);
    for (const a of answers.filter((x) => x.status === 400)) expect((a.json as { code: string }).code).toBe("CHALLENGE_NOT_FOUND");
    expect(await t.auth.$context.adapter.count({ model: "session" })).toBe(sessionsBefore + 1);
  });

  it("redeems one registration challenge once among 10 parallel requests", async () => {
    const b = browser(t);
    await signUp(b, `reg-race-${kind}@example.com`);
    const options = await b.get<{ challenge: string; rp: { id: string }; user: { id: string } }>("/passkey/generate-register-options");
    const key = new SoftwareAuthenticator({ origin: ORIGIN });
    const response = key.register(options.json!);
    const cookie = b.jar.header()!;
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        client(t.auth, { origin: ORIGIN }).post("/passkey/verify-registration", { response }, { headers: { cookie } }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, ...Array(9).fill(400)]);
    expect((await b.get<unknown[]>("/passkey/list-user-passkeys")).json).toHaveLength(1);
  });

  it("stores only a rising counter when assertions of one credential race", async () => {
    const b = browser(t);
    await signUp(b, `counter-${kind}@example.com`);
    const key = new SoftwareAuthenticator({ origin: ORIGIN });
    expect((await register(b, key)).status).toBe(200);
    // Ten browsers each get a challenge; the credential answers with counters 1..10, sent at once.
    const browsers = Array.from({ length: 10 }, () => client(t.auth, { origin: ORIGIN }));
    const pending = [];
    for (const [i, other] of browsers.entries()) {
      const { response } = await assertion(other, key, i + 1);
      pending.push(other.post("/passkey/verify-authentication", { response }));
    }
    const answers = await Promise.all(pending);
    const ok = answers.filter((a) => a.status === 200).length;
    expect(ok).toBeGreaterThanOrEqual(1);
    for (const a of answers.filter((x) => x.status !== 200)) expect((a.json as { code: string }).code).toBe("AUTHENTICATION_FAILED");
    const row = await t.auth.$context.adapter.findOne<{ counter: number }>({
      model: "passkey",
      where: [{ field: "credentialID", value: Buffer.from(key.credentials[0]!.id).toString("base64url") }],
    });
    // Whatever the interleaving, the stored counter is the highest one accepted, never rolled back.
    expect(row!.counter).toBe(10 - answers.slice().reverse().findIndex((a) => a.status === 200));
  });
});
