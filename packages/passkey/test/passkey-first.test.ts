import { client, type TestAuth } from "@latchkey/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PasskeyOptions } from "../src/index.ts";
import { browser, ORIGIN, passkeyInstance, register, signInWithPasskey, signUp, SoftwareAuthenticator } from "./instance.ts";

/** Users created ahead of their passkey, by the `context` the app hands the page. */
const pending = new Map<string, { id: string; name: string }>();
const seen: Array<{ context: string | null | undefined; userId: string }> = [];

const options: PasskeyOptions = {
  registration: {
    requireSession: false,
    resolveUser: ({ context }) => pending.get(context ?? "") ?? { id: "", name: "" },
    afterVerification: ({ user, context }) => {
      seen.push({ context, userId: user.id });
      return context === "named" ? { name: "From callback" } : undefined;
    },
  },
};

let t: TestAuth;
beforeAll(async () => {
  t = await passkeyInstance("sqlite", options);
});
afterAll(() => t.close());

/** Makes a user with email/password, then forgets its session; returns the id. */
async function makeUser(email: string): Promise<string> {
  return signUp(client(t.auth, { origin: ORIGIN }), email);
}

describe("registration without a session (requireSession: false, resolveUser)", () => {
  it("registers for the user resolveUser names and opens a session with createSession", async () => {
    const id = await makeUser("first@example.com");
    pending.set("ctx-1", { id, name: "first@example.com" });
    const b = client(t.auth, { origin: ORIGIN });
    const key = new SoftwareAuthenticator({ origin: ORIGIN });
    const answer = await register(b, key, { createSession: true }, "?context=ctx-1");
    expect(answer.status, answer.text).toBe(200);
    expect(answer.json).toMatchObject({ userId: id, session: { userId: id }, user: { id, email: "first@example.com" } });
    expect(seen.at(-1)).toEqual({ context: "ctx-1", userId: id });
    expect((await b.get<{ user: { id: string } }>("/get-session")).json?.user.id).toBe(id);
    expect((await signInWithPasskey(client(t.auth, { origin: ORIGIN }), key)).json?.user.id).toBe(id);
  });

  it("takes the name afterVerification gives, and stores no session without createSession", async () => {
    const id = await makeUser("named@example.com");
    pending.set("named", { id, name: "named@example.com" });
    const b = client(t.auth, { origin: ORIGIN });
    const answer = await register(b, new SoftwareAuthenticator({ origin: ORIGIN }), {}, "?context=named");
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ userId: id, name: "From callback" });
    expect(answer.json!.session).toBeUndefined();
    expect(b.jar.values.has("better-auth.session_token")).toBe(false);
  });

  it("answers 400 RESOLVED_USER_INVALID when resolveUser names nobody", async () => {
    const answer = await client(t.auth, { origin: ORIGIN }).get("/passkey/generate-register-options?context=unknown");
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual({ code: "RESOLVED_USER_INVALID", message: "Resolved user is invalid" });
  });

  it("still registers for a signed-in user, whatever the context", async () => {
    const b = browser(t);
    const id = await signUp(b, "signed-in@example.com");
    const answer = await register(b, new SoftwareAuthenticator({ origin: ORIGIN }), {}, "?context=ctx-1");
    expect(answer.json).toMatchObject({ userId: id });
  });
});

describe("registration without a session and without resolveUser", () => {
  it("answers 400 RESOLVE_USER_REQUIRED", async () => {
    const bare = await passkeyInstance("sqlite", { registration: { requireSession: false } });
    try {
      const answer = await client(bare.auth).get("/passkey/generate-register-options");
      expect(answer.status).toBe(400);
      expect(answer.json).toMatchObject({ code: "RESOLVE_USER_REQUIRED" });
    } finally {
      await bare.close();
    }
  });
});
