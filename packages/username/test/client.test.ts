import { createAuthClient } from "@latchkey/client";
import { browserFetch, type TestAuth } from "@latchkey/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { usernameClient } from "../src/client.ts";
import { PASSWORD, usernameInstance } from "./instance.ts";

let t: TestAuth;
beforeAll(async () => {
  t = await usernameInstance("sqlite");
});
afterAll(() => t.close());

/** A `@latchkey/client` in front of the instance, as one browser (its own cookies). */
const browserClient = () =>
  createAuthClient({ baseURL: "http://localhost:3000", fetch: browserFetch((request) => t.auth.handler(request)), plugins: [usernameClient()] });

describe("usernameClient", () => {
  it("isUsernameAvailable, sign-up with a username, signIn.username, and a refused sign-in", async () => {
    const c = browserClient();
    expect((await c.isUsernameAvailable({ username: "Client_User" })).data).toEqual({ available: true });
    const signUp = await c.signUp.email({ email: "cl@example.com", password: PASSWORD, name: "C", username: "Client_User" } as never);
    expect(signUp.error).toBeNull();
    expect((await c.isUsernameAvailable({ username: "client_user" })).data).toEqual({ available: false });
    const signedIn = await browserClient().signIn.username({ username: "CLIENT_USER", password: PASSWORD });
    expect(signedIn.data?.user.username).toBe("client_user");
    const refused = await browserClient().signIn.username({ username: "client_user", password: "wrong password" });
    expect(refused.error).toMatchObject({ status: 401, code: "INVALID_USERNAME_OR_PASSWORD" });
  });
});
