import { createAuthClient } from "@latchkey/client";
import { CookieJar, type TestAuth } from "@latchkey/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { usernameClient } from "../src/client.ts";
import { PASSWORD, usernameInstance } from "./instance.ts";

let t: TestAuth;
beforeAll(async () => {
  t = await usernameInstance("sqlite");
});
afterAll(() => t.close());

function browserClient() {
  const jar = new CookieJar();
  return createAuthClient({
    baseURL: "http://localhost:3000",
    fetch: async (url, init) => {
      const headers = new Headers(init?.headers);
      const cookie = jar.header();
      if (cookie) headers.set("cookie", cookie);
      const response = await t.auth.handler(new Request(url, { ...init, headers }));
      jar.absorb(response);
      return response;
    },
    plugins: [usernameClient()],
  });
}

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
