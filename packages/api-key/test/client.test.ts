import { createAuthClient, type ClientPlugin } from "@latchkey/client";
import { client, type TestAuth } from "@latchkey/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiKeyClient } from "../src/client.ts";
import { apiKeyInstance, PASSWORD } from "./instance.ts";

let t: TestAuth;
beforeAll(async () => {
  t = await apiKeyInstance("sqlite", { enableSessionForAPIKeys: true });
});
afterAll(() => t.close());

/** A `@latchkey/client` whose requests go through the test kit's cookie-keeping client. */
function browserClient() {
  const browser = client(t.auth);
  return createAuthClient({
    baseURL: "http://localhost:3000",
    fetch: async (url, init) => (await browser.request(String(url), init)).response,
    plugins: [apiKeyClient()],
  });
}

describe("apiKeyClient", () => {
  it("is a client plugin for @latchkey/client", () => {
    expect(apiKeyClient()).toSatisfy((p: ClientPlugin) => p.id === "api-key");
  });

  it("create, get (both argument shapes), list, update and delete through client.apiKey", async () => {
    const client = browserClient();
    await client.signUp.email({ email: "client@example.com", password: PASSWORD, name: "Client" });
    const created = await client.apiKey.create({ name: "laptop" });
    expect(created.error).toBeNull();
    const id = created.data!.id;
    expect(created.data!.key).toMatch(/^[a-zA-Z]{64}$/);
    expect((await client.apiKey.get({ id })).data).toMatchObject({ id, name: "laptop" });
    expect((await client.apiKey.get({ query: { id } })).data).toMatchObject({ id });
    expect((await client.apiKey.list({ limit: 10, sortBy: "createdAt" })).data).toMatchObject({ total: 1, limit: 10 });
    expect((await client.apiKey.update({ keyId: id, name: "desktop" })).data).toMatchObject({ name: "desktop" });
    const refused = await client.apiKey.update({ keyId: id, remaining: 5 });
    expect(refused.error).toMatchObject({ status: 400, code: "SERVER_ONLY_PROPERTY" });
    expect(await client.apiKey.delete({ keyId: id })).toEqual({ data: { success: true }, error: null });
    expect((await client.apiKey.get({ id })).error).toMatchObject({ status: 404, code: "KEY_NOT_FOUND" });
  });

  it("a client with no cookies, only the key in x-api-key, reads its session", async () => {
    const owner = browserClient();
    await owner.signUp.email({ email: "keyed@example.com", password: PASSWORD, name: "Keyed" });
    const { key } = (await owner.apiKey.create({})).data!;
    const keyed = createAuthClient({ baseURL: "http://localhost:3000", fetch: (url, init) => t.auth.handler(new Request(url, init)), fetchOptions: { headers: { "x-api-key": key } }, plugins: [apiKeyClient()] });
    expect((await keyed.getSession()).data?.user.email).toBe("keyed@example.com");
    expect((await keyed.apiKey.list()).data).toMatchObject({ total: 1 });
  });
});
