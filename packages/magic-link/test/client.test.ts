import { createAuthClient, type ClientPlugin } from "@latchkey/client";
import { handlerFetch, TEST_BASE_URL, type TestAuth } from "@latchkey/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { magicLinkClient } from "../src/client.ts";
import { magicInstance, type Outbox } from "./instance.ts";

let t: TestAuth & { outbox: Outbox };
beforeAll(async () => {
  t = await magicInstance("sqlite");
});
afterAll(() => t.close());

/** A `@latchkey/client` in front of the instance, with one browser's cookie jar. */
const browserClient = () =>
  createAuthClient({ baseURL: TEST_BASE_URL, fetch: handlerFetch(t.auth).fetch, plugins: [magicLinkClient()] });

describe("magicLinkClient", () => {
  it("is a client plugin for @latchkey/client", () => {
    expect(magicLinkClient()).toSatisfy((p: ClientPlugin) => p.id === "magic-link");
  });

  it("signIn.magicLink then magicLink.verify signs the browser in", async () => {
    const client = browserClient();
    const sent = await client.signIn.magicLink({ email: "client@example.com", name: "Client" });
    expect(sent).toEqual({ data: { status: true }, error: null });
    const token = t.outbox.at(-1)!.token;
    const verified = await client.magicLink.verify({ query: { token } });
    expect(verified.error).toBeNull();
    expect(verified.data?.user).toMatchObject({ email: "client@example.com", name: "Client", emailVerified: true });
    const session = await client.getSession();
    expect(session.data?.user.email).toBe("client@example.com");
  });

  it("a bad email is an error result with the validation code", async () => {
    const client = browserClient();
    const refused = await client.signIn.magicLink({ email: "not-an-email" });
    expect(refused.data).toBeNull();
    expect(refused.error).toMatchObject({ status: 400, code: "VALIDATION_ERROR" });
  });
});
