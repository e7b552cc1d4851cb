import { createAuthClient, type ClientPlugin } from "@latchkey/client";
import { browserFetch, CookieJar, type TestAuth } from "@latchkey/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anonymousClient } from "../src/client.ts";
import { anonymousInstance, PASSWORD, PLACEHOLDER } from "./instance.ts";

let t: TestAuth;
beforeAll(async () => {
  t = await anonymousInstance("sqlite");
});
afterAll(() => t.close());

/** A `@latchkey/client` in front of the instance, with one browser's cookie jar. */
function browserClient() {
  const jar = new CookieJar();
  return createAuthClient({
    baseURL: "http://localhost:3000",
    fetch: browserFetch((request) => t.auth.handler(request), jar),
    plugins: [anonymousClient()],
  });
}

describe("anonymousClient", () => {
  it("is a client plugin for @latchkey/client", () => {
    expect(anonymousClient()).toSatisfy((p: ClientPlugin) => p.id === "anonymous");
  });

  it("signs in anonymously, is refused a second time, links on sign-up, and deletes another guest", async () => {
    const client = browserClient();
    const guest = await client.signIn.anonymous();
    expect(guest.data?.user.email).toMatch(PLACEHOLDER);
    expect(guest.data?.user.isAnonymous).toBe(true);
    const again = await client.signIn.anonymous();
    expect(again.error).toMatchObject({
      status: 400,
      code: "ANONYMOUS_USERS_CANNOT_SIGN_IN_AGAIN_ANONYMOUSLY",
    });
    await client.signUp.email({ email: "client-real@example.com", password: PASSWORD, name: "Real" });
    expect((await client.getSession()).data?.user.email).toBe("client-real@example.com");
    expect(await t.auth.$context.internalAdapter.findUserById(guest.data!.user.id)).toBeNull();

    const other = browserClient();
    await other.signIn.anonymous();
    expect(await other.deleteAnonymousUser()).toEqual({ data: { success: true }, error: null });
    expect((await other.getSession()).data).toBeNull();
  });
});
