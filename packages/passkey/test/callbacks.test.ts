import { APIError } from "@latchkey/core";
import { client, type TestAuth } from "@latchkey/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browser, ORIGIN, passkeyInstance, register, signInWithPasskey, signUp, SoftwareAuthenticator } from "./instance.ts";

/** What the callbacks do next: pass, throw an application error, or crash. */
let mode: "pass" | "forbid" | "crash" = "pass";
const act = (): void => {
  if (mode === "forbid") throw new APIError("FORBIDDEN", { message: "Not this one" });
  if (mode === "crash") throw new Error("callback bug");
};

let t: TestAuth;
beforeAll(async () => {
  t = await passkeyInstance("sqlite", {
    registration: { afterVerification: () => act() },
    authentication: { afterVerification: () => act() },
  });
});
afterAll(() => t.close());

describe("afterVerification callbacks", () => {
  it("answer an APIError they throw as is; anything else as the reference's catch-all; nothing stored", async () => {
    const b = browser(t);
    await signUp(b, "callbacks@example.com");
    const key = new SoftwareAuthenticator({ origin: ORIGIN });
    mode = "forbid";
    const forbidden = await register(b, key);
    expect([forbidden.status, forbidden.json]).toEqual([403, { message: "Not this one" }]);
    mode = "crash";
    const crashed = await register(b, key);
    expect([crashed.status, crashed.json]).toEqual([500, { code: "FAILED_TO_VERIFY_REGISTRATION", message: "Failed to verify registration" }]);
    expect((await b.get<unknown[]>("/passkey/list-user-passkeys")).json).toEqual([]);

    mode = "pass";
    expect((await register(b, key)).status).toBe(200);
    mode = "forbid";
    expect((await signInWithPasskey(client(t.auth, { origin: ORIGIN }), key)).status).toBe(403);
    mode = "crash";
    const refused = await signInWithPasskey(client(t.auth, { origin: ORIGIN }), key);
    expect([refused.status, refused.json]).toEqual([400, { code: "AUTHENTICATION_FAILED", message: "Authentication failed" }]);
    mode = "pass";
    expect((await signInWithPasskey(client(t.auth, { origin: ORIGIN }), key)).status).toBe(200);
  });
});
