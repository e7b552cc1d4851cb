import { createAuthClient } from "better-auth/client";
import { siweClient } from "better-auth/client/plugins";
import { siwe as referenceSiwe } from "better-auth/plugins";
import { verifyMessage, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { createSiweMessage, generateSiweNonce } from "viem/siwe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { siwe, type SIWEPluginOptions } from "@latchkey/siwe";
import { jarFetch } from "./support/client-fetch.ts";
import { responseCookies } from "./support/cookies.ts";
import { BASE_PATH, createPair, jsonPost, type Handler, type Pair } from "./support/instances.ts";
import { listen } from "./support/server.ts";

/**
 * `@latchkey/siwe` beside the reference's `siwe()` (better-auth/plugins) on one SQLite file, both
 * given the same viem-backed options: messages are built and signed by real test wallets, nonces
 * issued by one side are redeemed on the other, wallet users made by one sign in on the other,
 * and the answers (success and each refusal) are compared. Rows 65-66 of DIVERGENCES.md at the end.
 */
const DOMAIN = "example.com";
const options = {
  domain: DOMAIN,
  getNonce: async () => generateSiweNonce(),
  verifyMessage: async ({
    message,
    signature,
    address,
  }: {
    message: string;
    signature: string;
    address: string;
  }) => verifyMessage({ address: address as Hex, message, signature: signature as Hex }),
} satisfies SIWEPluginOptions;

const wallet = (): PrivateKeyAccount => privateKeyToAccount(generatePrivateKey());

function message(
  account: PrivateKeyAccount,
  nonce: string,
  extra: { domain?: string; chainId?: number; expirationTime?: Date } = {},
): string {
  return createSiweMessage({
    domain: extra.domain ?? DOMAIN,
    address: account.address,
    statement: "Compat test.",
    uri: `https://${DOMAIN}`,
    version: "1",
    chainId: extra.chainId ?? 1,
    nonce,
    ...(extra.expirationTime ? { expirationTime: extra.expirationTime } : {}),
  });
}

async function post(
  handler: Handler,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: unknown; cookies: string[] }> {
  const request =
    body === undefined
      ? new Request(`http://localhost:3000${BASE_PATH}${path}`, { method: "POST" })
      : jsonPost(path, body);
  const response = await handler(request);
  const text = await response.text();
  return {
    status: response.status,
    json: text ? JSON.parse(text) : null,
    cookies: responseCookies(response).map((c) => c.name),
  };
}

async function nonce(handler: Handler): Promise<string> {
  return ((await post(handler, "/siwe/nonce")).json as { nonce: string }).nonce;
}

async function signed(issuer: Handler, account: PrivateKeyAccount, extra?: Parameters<typeof message>[2]) {
  const text = message(account, await nonce(issuer), extra);
  return { message: text, signature: await account.signMessage({ message: text }) };
}

/** Ids, tokens and nonces differ by construction. */
const normalize = (value: unknown): unknown =>
  JSON.parse(
    JSON.stringify(value, (key, v: unknown) => (["id", "token", "nonce"].includes(key) ? "<any>" : v)),
  );

describe("siwe: the same answers on both", () => {
  let pair: Pair;
  beforeAll(async () => {
    pair = await createPair({
      reference: { plugins: [referenceSiwe(options)] },
      latchkey: { plugins: [siwe(options)] },
    });
  });
  afterAll(() => pair.close());

  it("nonce routes: the same answers for no body, {}, the alias and an unknown field", async () => {
    for (const [path, body] of [
      ["/siwe/nonce", undefined],
      ["/siwe/nonce", {}],
      ["/siwe/get-nonce", undefined],
      ["/siwe/nonce", { walletAddress: wallet().address, chainId: 1 }],
    ] as const) {
      const [a, b] = [await post(pair.reference, path, body), await post(pair.latchkey, path, body)];
      expect(normalize(b), `${path} ${JSON.stringify(body)}`).toEqual(normalize(a));
    }
  });

  it("verify: success, then each refusal, answered alike (a nonce from either side works on either)", async () => {
    const sides = [pair.reference, pair.latchkey] as const;
    // One side after the other: two connections writing one SQLite file at once would meet
    // SQLITE_BUSY (neither side sets a busy timeout), which is not what is compared here.
    const runs: unknown[] = [];
    for (const [i, verifier] of sides.entries()) {
      runs.push(
        await (async () => {
          const issuer = sides[1 - i]!;
          const account = wallet();
          const steps: unknown[] = [];
          const good = await signed(issuer, account);
          const ok = await post(verifier, "/siwe/verify", good);
          steps.push({
            ...ok,
            json: {
              ...(ok.json as object),
              user: { ...(ok.json as { user: object }).user, walletAddress: "<wallet>" },
            },
          });
          steps.push(await post(verifier, "/siwe/verify", good));
          steps.push(
            await post(verifier, "/siwe/verify", await signed(issuer, account, { domain: "evil.example" })),
          );
          steps.push(
            await post(
              verifier,
              "/siwe/verify",
              await signed(issuer, account, { expirationTime: new Date(Date.now() - 1000) }),
            ),
          );
          const text = message(account, await nonce(issuer));
          steps.push(
            await post(verifier, "/siwe/verify", {
              message: text,
              signature: await wallet().signMessage({ message: text }),
            }),
          );
          steps.push(await post(verifier, "/siwe/verify", { ...good, extra: true }));
          steps.push(await post(verifier, "/siwe/verify", { message: "", signature: "" }));
          return normalize(steps);
        })(),
      );
    }
    expect(runs[1]).toEqual(runs[0]);
  });

  it("a wallet user made by one side signs in as the same user on the other, on a new chain too", async () => {
    for (const [first, second] of [
      [pair.reference, pair.latchkey],
      [pair.latchkey, pair.reference],
    ] as const) {
      const account = wallet();
      const made = (await post(first, "/siwe/verify", await signed(first, account))).json as {
        user: { id: string };
      };
      const again = (await post(second, "/siwe/verify", await signed(second, account))).json as {
        user: { id: string };
      };
      expect(again.user.id).toBe(made.user.id);
      const chain = (await post(second, "/siwe/verify", await signed(second, account, { chainId: 137 })))
        .json as {
        user: { id: string; chainId: number };
      };
      expect(chain.user).toMatchObject({ id: made.user.id, chainId: 137 });
      const rows = pair.db
        .prepare(
          'select address, "chainId", "isPrimary" from "walletAddress" where "userId" = ? order by "chainId"',
        )
        .all([made.user.id]);
      expect(rows).toEqual([
        { address: account.address, chainId: 1, isPrimary: 1 },
        { address: account.address, chainId: 137, isPrimary: 0 },
      ]);
      const user = pair.db.prepare("select email, name from user where id = ?").all([made.user.id]);
      expect(user).toEqual([
        { email: `${account.address.toLowerCase()}@siwe.placeholder.invalid`, name: account.address },
      ]);
    }
  });
});

describe("siwe: the reference's siweClient() against Latchkey over HTTP", () => {
  it("nonce, verify and session answer as against the reference", async () => {
    const results: Record<string, unknown> = {};
    for (const side of ["reference", "latchkey"] as const) {
      const server = await listen();
      const pair = await createPair({
        baseURL: server.origin,
        reference: { plugins: [referenceSiwe(options)] },
        latchkey: { plugins: [siwe(options)] },
      });
      server.use(pair[side]);
      try {
        const client = createAuthClient({
          baseURL: `${server.origin}${BASE_PATH}`,
          fetchOptions: { customFetchImpl: jarFetch().fetch },
          plugins: [siweClient()],
        });
        const account = wallet();
        const issued = await client.siwe.nonce({});
        const text = message(account, issued.data!.nonce);
        const verified = await client.siwe.verify({
          message: text,
          signature: await account.signMessage({ message: text }),
        });
        const session = await client.getSession();
        expect(session.data?.user.id).toBe(verified.data?.user.id);
        const replay = await client.siwe.verify({
          message: text,
          signature: await account.signMessage({ message: text }),
        });
        results[side] = normalize([
          issued.error,
          { ...verified.data, user: { ...verified.data?.user, walletAddress: "<w>" } },
          replay,
        ]);
      } finally {
        pair.close();
        await server.close();
      }
    }
    expect(results.latchkey).toEqual(results.reference);
  });
});

describe("siwe: divergences (DIVERGENCES.md rows 65-66)", () => {
  it("row 65: verifyMessage throws (a malformed signature) — the reference sends the thrown text back, Latchkey only the message", async () => {
    const pair = await createPair({
      reference: { plugins: [referenceSiwe(options)] },
      latchkey: { plugins: [siwe(options)] },
    });
    try {
      const account = wallet();
      const garbled = async (side: Handler) =>
        post(side, "/siwe/verify", { message: message(account, await nonce(side)), signature: "0x1234" });
      const [a, b] = [await garbled(pair.reference), await garbled(pair.latchkey)];
      expect(a.status).toBe(401);
      expect(a.json).toMatchObject({ message: "Something went wrong. Please try again later." });
      expect(typeof (a.json as { error?: unknown }).error).toBe("string");
      expect([b.status, b.json]).toEqual([
        401,
        { status: 401, message: "Something went wrong. Please try again later." },
      ]);
    } finally {
      pair.close();
    }
  });

  it("row 66: a failure after the signature verified (ensLookup throws) — the reference answers 401 with its text, Latchkey 500", async () => {
    const failing = {
      ...options,
      ensLookup: async (): Promise<{ name: string; avatar: string }> => {
        throw new Error("ens resolver at 10.0.0.7 timed out");
      },
    };
    const pair = await createPair({
      reference: { plugins: [referenceSiwe(failing)] },
      latchkey: { plugins: [siwe(failing)] },
    });
    try {
      const attempt = async (side: Handler) => post(side, "/siwe/verify", await signed(side, wallet()));
      const [a, b] = [await attempt(pair.reference), await attempt(pair.latchkey)];
      expect(a.status).toBe(401);
      expect(a.json).toMatchObject({
        message: "Something went wrong. Please try again later.",
        error: "ens resolver at 10.0.0.7 timed out",
      });
      expect(b.status).toBe(500);
      expect(JSON.stringify(b.json)).not.toContain("10.0.0.7");
    } finally {
      pair.close();
    }
  });
});
