import { createAuthClient, type ClientPlugin } from "@latchkey/client";
import { browserFetch, CookieJar, type TestAuth } from "@latchkey/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { multiSessionClient } from "../src/client.ts";
import { multiInstance, PASSWORD } from "./instance.ts";

let t: TestAuth;
beforeAll(async () => {
  t = await multiInstance("sqlite");
});
afterAll(() => t.close());

/** A `@latchkey/client` in front of the instance, with one browser's cookie jar. */
function browserClient() {
  const jar = new CookieJar();
  return createAuthClient({
    baseURL: "http://localhost:3000",
    fetch: browserFetch((request) => t.auth.handler(request), jar),
    plugins: [multiSessionClient()],
  });
}

describe("multiSessionClient", () => {
  it("is a client plugin for @latchkey/client", () => {
    expect(multiSessionClient()).toSatisfy((p: ClientPlugin) => p.id === "multi-session");
  });

  it("lists, switches and revokes through client.multiSession", async () => {
    const client = browserClient();
    const a = await client.signUp.email({ email: "client-a@example.com", password: PASSWORD, name: "A" });
    const b = await client.signUp.email({ email: "client-b@example.com", password: PASSWORD, name: "B" });
    const listed = await client.multiSession.listDeviceSessions();
    expect(listed.data?.map((e) => e.user.email).sort()).toEqual(["client-a@example.com", "client-b@example.com"]);
    const aToken = a.data!.token!;
    const switched = await client.multiSession.setActive({ sessionToken: aToken });
    expect(switched.data?.user.email).toBe("client-a@example.com");
    expect((await client.getSession()).data?.user.email).toBe("client-a@example.com");
    const revoked = await client.multiSession.revoke({ sessionToken: b.data!.token! });
    expect(revoked).toEqual({ data: { status: true }, error: null });
    const refused = await client.multiSession.setActive({ sessionToken: "nope" });
    expect(refused.error).toMatchObject({ status: 401, code: "INVALID_SESSION_TOKEN", message: "Invalid session token" });
  });
});
