import { createAuthClient, type ClientPlugin } from "@latchkey/client";
import { browserFetch, CookieJar, type TestAuth } from "@latchkey/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { siweClient } from "../src/client.ts";
import { newWallet, siweInstance, siweMessage } from "./instance.ts";

let t: TestAuth;
beforeAll(async () => {
  t = await siweInstance("sqlite");
});
afterAll(() => t.close());

function browserClient() {
  const jar = new CookieJar();
  return createAuthClient({
    baseURL: "http://localhost:3000",
    fetch: browserFetch((request) => t.auth.handler(request), jar),
    plugins: [siweClient()],
  });
}

describe("siweClient", () => {
  it("is a client plugin for @latchkey/client", () => {
    expect(siweClient()).toSatisfy((p: ClientPlugin) => p.id === "siwe");
  });

  it("gets a nonce, verifies a signed message and is signed in; a replay is refused", async () => {
    const client = browserClient();
    const wallet = newWallet();
    const { data } = await client.siwe.nonce();
    expect((await client.siwe.getNonce()).data?.nonce).toMatch(/^[a-zA-Z0-9]{8,}$/);
    const message = siweMessage(wallet, data!.nonce);
    const body = { message, signature: await wallet.signMessage({ message }) };
    const verified = await client.siwe.verify(body);
    expect(verified.data).toMatchObject({
      success: true,
      user: { walletAddress: wallet.address, chainId: 1 },
    });
    expect((await client.getSession()).data?.user.id).toBe(verified.data?.user.id);
    const replay = await client.siwe.verify(body);
    expect(replay.error).toMatchObject({ status: 401, code: "UNAUTHORIZED_INVALID_OR_EXPIRED_NONCE" });
  });
});
