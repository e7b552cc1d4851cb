import { rowCounts, type TestAuth } from "@latchkey/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checksumAddress } from "../src/index.ts";
import {
  client,
  newWallet,
  nonceFrom,
  siweInstance,
  siweMessage,
  signedBody,
  type VerifyAnswer,
} from "./instance.ts";

const instances: TestAuth[] = [];
afterAll(() => Promise.all(instances.map((t) => t.close())));
async function make(options: Parameters<typeof siweInstance>[1] = {}): Promise<TestAuth> {
  const t = await siweInstance("sqlite", options);
  instances.push(t);
  return t;
}

const MISMATCH = {
  status: 401,
  code: "UNAUTHORIZED_SIWE_MESSAGE_MISMATCH",
  message: "Unauthorized: SIWE message does not match the expected nonce, domain, address, or chain ID",
};

describe("POST /siwe/nonce and /siwe/get-nonce", () => {
  let t: TestAuth;
  beforeAll(async () => {
    t = await make();
  });

  it("issues an EIP-4361 nonce stored for 15 minutes under siwe:<nonce>", async () => {
    const before = Date.now();
    const nonce = await nonceFrom(client(t.auth));
    expect(nonce).toMatch(/^[a-zA-Z0-9]{8,}$/);
    const row = await t.auth.$context.internalAdapter.findVerificationValue(`siwe:${nonce}`);
    expect(row?.value).toBe(nonce);
    const lifetime = new Date(row!.expiresAt).getTime() - before;
    expect(lifetime).toBeGreaterThan(14.9 * 60_000);
    expect(lifetime).toBeLessThanOrEqual(15 * 60_000 + 1000);
  });

  it("the alias answers the same; {} is fine; unknown fields (the old wallet fields too) are refused", async () => {
    const browser = client(t.auth);
    expect((await browser.post("/siwe/get-nonce", {})).status).toBe(200);
    const before = await rowCounts(t.auth);
    const legacy = await browser.post("/siwe/nonce", { walletAddress: newWallet().address, chainId: 1 });
    expect(legacy.status).toBe(400);
    expect(legacy.json).toMatchObject({ code: "VALIDATION_ERROR" });
    expect(await rowCounts(t.auth)).toEqual(before);
  });

  it("acceptLegacyWalletFields accepts and ignores the old wallet fields (nowhere else)", async () => {
    const legacy = await make({ acceptLegacyWalletFields: true });
    const browser = client(legacy.auth);
    const wallet = newWallet();
    const answer = await browser.post<{ nonce: string }>("/siwe/nonce", {
      walletAddress: wallet.address,
      chainId: 5,
    });
    expect(answer.status).toBe(200);
    expect((await browser.post("/siwe/nonce", { other: 1 })).status).toBe(400);
    const message = siweMessage(wallet, answer.json!.nonce);
    const signature = await wallet.signMessage({ message });
    // The body's chainId is ignored: the signed message says chain 1.
    const verified = await browser.post<VerifyAnswer>("/siwe/verify", {
      message,
      signature,
      walletAddress: "0x0",
      chainId: 5,
    });
    expect(verified.json?.user.chainId).toBe(1);
  });

  it("a getNonce that breaks EIP-4361 is 500 SIWE_INVALID_NONCE and stores nothing", async () => {
    const broken = await make({ getNonce: async () => "short" });
    const before = await rowCounts(broken.auth);
    const answer = await client(broken.auth).post("/siwe/nonce");
    expect(answer.status).toBe(500);
    expect(answer.json).toEqual({
      status: 500,
      code: "SIWE_INVALID_NONCE",
      message: "SIWE getNonce must return an ERC-4361 nonce: 8-250 alphanumeric characters.",
    });
    expect(await rowCounts(broken.auth)).toEqual(before);
  });
});

describe("POST /siwe/verify", () => {
  let t: TestAuth;
  beforeAll(async () => {
    t = await make();
  });

  it("signs a new wallet up: user, primary wallet row, siwe account, session cookie", async () => {
    const browser = client(t.auth);
    const wallet = newWallet();
    const answer = await browser.post<VerifyAnswer>("/siwe/verify", await signedBody(browser, wallet));
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ success: true, user: { walletAddress: wallet.address, chainId: 1 } });
    const userId = answer.json!.user.id;
    const session = await browser.get<{ user: { id: string; email: string; name: string; image: string } }>(
      "/get-session",
    );
    expect(session.json?.user).toMatchObject({
      id: userId,
      name: wallet.address,
      email: `${wallet.address.toLowerCase()}@siwe.placeholder.invalid`,
    });
    const { adapter } = t.auth.$context;
    expect(
      await adapter.findMany({ model: "walletAddress", where: [{ field: "userId", value: userId }] }),
    ).toMatchObject([{ address: wallet.address, chainId: 1, isPrimary: true }]);
    expect(
      await adapter.findMany({ model: "account", where: [{ field: "userId", value: userId }] }),
    ).toMatchObject([{ providerId: "siwe", accountId: `${wallet.address}:1` }]);
  });

  it("the same wallet again is the same user; on another chain it gains a non-primary row", async () => {
    const browser = client(t.auth);
    const wallet = newWallet();
    const first = await browser.post<VerifyAnswer>("/siwe/verify", await signedBody(browser, wallet));
    const before = await rowCounts(t.auth);
    const again = await browser.post<VerifyAnswer>("/siwe/verify", await signedBody(browser, wallet));
    expect(again.json?.user.id).toBe(first.json?.user.id);
    expect(await rowCounts(t.auth)).toEqual({ ...before, session: before.session! + 1 });
    const other = await browser.post<VerifyAnswer>(
      "/siwe/verify",
      await signedBody(browser, wallet, { chainId: 10 }),
    );
    expect(other.json?.user).toMatchObject({ id: first.json?.user.id, chainId: 10 });
    const rows = await t.auth.$context.adapter.findMany<{ chainId: number; isPrimary: boolean }>({
      model: "walletAddress",
      where: [{ field: "userId", value: first.json!.user.id }],
    });
    expect(rows.map((r) => [r.chainId, r.isPrimary]).sort()).toEqual([
      [1, true],
      [10, false],
    ]);
  });

  it("a message whose address is lower-case signs in as the checksummed wallet", async () => {
    const browser = client(t.auth);
    const wallet = newWallet();
    const message = siweMessage(wallet, await nonceFrom(browser)).replace(
      wallet.address,
      wallet.address.toLowerCase(),
    );
    const answer = await browser.post<VerifyAnswer>("/siwe/verify", {
      message,
      signature: await wallet.signMessage({ message }),
    });
    expect(answer.status).toBe(200);
    expect(answer.json?.user.walletAddress).toBe(wallet.address);
    expect(checksumAddress(wallet.address.toLowerCase())).toBe(wallet.address);
  });

  it("a nonce works once; an unknown one never", async () => {
    const browser = client(t.auth);
    const body = await signedBody(browser, newWallet());
    expect((await browser.post("/siwe/verify", body)).status).toBe(200);
    const replay = await browser.post("/siwe/verify", body);
    expect(replay.status).toBe(401);
    expect(replay.json).toEqual({
      status: 401,
      code: "UNAUTHORIZED_INVALID_OR_EXPIRED_NONCE",
      message: "Unauthorized: Invalid or expired nonce",
    });
    const wallet = newWallet();
    const message = siweMessage(wallet, "neverIssued123");
    expect(
      (await browser.post("/siwe/verify", { message, signature: await wallet.signMessage({ message }) }))
        .status,
    ).toBe(401);
  });

  it("another domain, a message without a nonce, expired and not-yet-valid messages are refused; nothing is written", async () => {
    const browser = client(t.auth);
    const wallet = newWallet();
    const cases: Array<[Parameters<typeof signedBody>[2], unknown]> = [
      [{ domain: "evil.example" }, MISMATCH],
      [
        { expirationTime: new Date(Date.now() - 1000) },
        {
          status: 401,
          code: "UNAUTHORIZED_SIWE_MESSAGE_EXPIRED",
          message: "Unauthorized: SIWE message has expired",
        },
      ],
      [
        { notBefore: new Date(Date.now() + 60_000) },
        {
          status: 401,
          code: "UNAUTHORIZED_SIWE_MESSAGE_NOT_YET_VALID",
          message: "Unauthorized: SIWE message is not yet valid",
        },
      ],
    ];
    for (const [parts, body] of cases) {
      const signed = await signedBody(browser, wallet, parts);
      const before = await rowCounts(t.auth, ["verification"]);
      const answer = await browser.post("/siwe/verify", signed);
      expect([answer.status, answer.json]).toEqual([401, body]);
      expect(await rowCounts(t.auth, ["verification"])).toEqual(before);
    }
    const noNonce =
      "example.com wants you to sign in with your Ethereum account:\n" +
      wallet.address +
      "\n\nURI: https://example.com\nVersion: 1\nChain ID: 1";
    const answer = await browser.post("/siwe/verify", {
      message: noNonce,
      signature: await wallet.signMessage({ message: noNonce }),
    });
    expect([answer.status, answer.json]).toEqual([401, MISMATCH]);
  });

  it("a signature by another key is 401; a malformed one is the reference's 401 without the library's error text", async () => {
    const browser = client(t.auth);
    const wallet = newWallet();
    const message = siweMessage(wallet, await nonceFrom(browser));
    const forged = await browser.post("/siwe/verify", {
      message,
      signature: await newWallet().signMessage({ message }),
    });
    expect([forged.status, forged.json]).toEqual([
      401,
      { status: 401, message: "Unauthorized: Invalid SIWE signature" },
    ]);
    const garbled = await browser.post("/siwe/verify", {
      message: siweMessage(wallet, await nonceFrom(browser)),
      signature: "0x1234",
    });
    expect([garbled.status, garbled.json]).toEqual([
      401,
      { status: 401, message: "Something went wrong. Please try again later." },
    ]);
  });
});

describe("new wallet users: email, name and image", () => {
  it("anonymous: false requires an email and uses it unless another user holds it", async () => {
    const t = await make({ anonymous: false });
    const browser = client(t.auth);
    const missing = await browser.post("/siwe/verify", await signedBody(browser, newWallet()));
    expect(missing.status).toBe(400);
    expect(missing.json).toEqual({
      code: "VALIDATION_ERROR",
      message: "[body.email] Email is required when the anonymous plugin option is disabled.",
    });
    const first = await browser.post<VerifyAnswer>("/siwe/verify", {
      ...(await signedBody(browser, newWallet())),
      email: "Wallet@Example.com",
    });
    const firstUser = await t.auth.$context.internalAdapter.findUserById(first.json!.user.id);
    expect(firstUser?.email).toBe("wallet@example.com");
    const wallet = newWallet();
    const second = await browser.post<VerifyAnswer>("/siwe/verify", {
      ...(await signedBody(browser, wallet)),
      email: "wallet@example.com",
    });
    const secondUser = await t.auth.$context.internalAdapter.findUserById(second.json!.user.id);
    expect(secondUser?.email).toBe(`${wallet.address.toLowerCase()}@siwe.placeholder.invalid`);
  });

  it("with anonymous on, a given email is ignored; emailDomainName and ensLookup shape the user", async () => {
    const t = await make({
      emailDomainName: "wallets.example.com",
      ensLookup: async ({ walletAddress }) => ({
        name: `ens-${walletAddress.slice(2, 6)}`,
        avatar: "https://example.com/a.png",
      }),
    });
    const browser = client(t.auth);
    const wallet = newWallet();
    const answer = await browser.post<VerifyAnswer>("/siwe/verify", {
      ...(await signedBody(browser, wallet)),
      email: "ignored@example.com",
    });
    const user = await t.auth.$context.internalAdapter.findUserById(answer.json!.user.id);
    expect(user).toMatchObject({
      email: `${wallet.address.toLowerCase()}@wallets.example.com`,
      name: `ens-${wallet.address.slice(2, 6)}`,
      image: "https://example.com/a.png",
    });
  });
});

describe("siwe() options", () => {
  it("refuses to start without domain, getNonce or verifyMessage", async () => {
    const { siwe } = await import("../src/index.ts");
    expect(() => siwe({} as never)).toThrow(TypeError);
  });
});
