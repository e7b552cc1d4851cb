import { createAuthClient } from "@latchkey/client";
import { browserFetch, type TestAuth } from "@latchkey/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { oneTimeTokenClient } from "../src/client.ts";
import { ottInstance, PASSWORD } from "./instance.ts";

let t: TestAuth;
beforeAll(async () => {
  t = await ottInstance("sqlite");
});
afterAll(() => t.close());

/** A `@latchkey/client` in front of the instance, as one browser (its own cookies). */
const browserClient = () =>
  createAuthClient({ baseURL: "http://localhost:3000", fetch: browserFetch((request) => t.auth.handler(request)), plugins: [oneTimeTokenClient()] });

describe("oneTimeTokenClient", () => {
  it("generate on one client, verify on another: the second is signed in to the same session", async () => {
    const first = browserClient();
    const signUp = await first.signUp.email({ email: "client@example.com", password: PASSWORD, name: "C" });
    expect(signUp.error).toBeNull();
    const generated = await first.oneTimeToken.generate();
    expect(generated.data?.token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const second = browserClient();
    const verified = await second.oneTimeToken.verify({ token: generated.data!.token });
    expect(verified.data?.user.email).toBe("client@example.com");
    const replay = await browserClient().oneTimeToken.verify({ token: generated.data!.token });
    expect(replay.data).toBeNull();
    expect(replay.error).toMatchObject({ status: 400, message: "Invalid token" });
  });
});
