import { client, testAuth, type DatabaseKind, type TestAuth, type TestClient } from "@latchkey/test-support";
import { verifyMessage, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { createSiweMessage, generateSiweNonce } from "viem/siwe";
import { siwe, type SIWEPluginOptions } from "../src/index.ts";

export const DOMAIN = "example.com";

/** The options every test instance uses: viem makes nonces and checks signatures. */
export const viemOptions: SIWEPluginOptions = {
  domain: DOMAIN,
  getNonce: async () => generateSiweNonce(),
  verifyMessage: async ({ message, signature, address }) =>
    verifyMessage({ address: address as Hex, message, signature: signature as Hex }),
};

/** An instance with `siwe(viemOptions + options)` on a fresh database. */
export const siweInstance = (db: DatabaseKind, options: Partial<SIWEPluginOptions> = {}): Promise<TestAuth> =>
  testAuth({ plugins: [siwe({ ...viemOptions, ...options })] }, { db });

/** A fresh test wallet (a random private key). */
export const newWallet = (): PrivateKeyAccount => privateKeyToAccount(generatePrivateKey());

export interface MessageParts {
  domain?: string;
  chainId?: number;
  address?: string;
  expirationTime?: Date;
  notBefore?: Date;
}

/** An EIP-4361 message for `wallet` with `nonce`, as a dapp builds it with viem. */
export function siweMessage(wallet: PrivateKeyAccount, nonce: string, parts: MessageParts = {}): string {
  return createSiweMessage({
    domain: parts.domain ?? DOMAIN,
    address: (parts.address ?? wallet.address) as Hex,
    statement: "Sign in to the test app.",
    uri: `https://${DOMAIN}`,
    version: "1",
    chainId: parts.chainId ?? 1,
    nonce,
    ...(parts.expirationTime ? { expirationTime: parts.expirationTime } : {}),
    ...(parts.notBefore ? { notBefore: parts.notBefore } : {}),
  });
}

/** Asks `browser`'s server for a nonce. */
export async function nonceFrom(browser: TestClient): Promise<string> {
  const answer = await browser.post<{ nonce: string }>("/siwe/nonce");
  if (answer.status !== 200 || !answer.json) throw new Error(`nonce failed: ${answer.status} ${answer.text}`);
  return answer.json.nonce;
}

/** A nonce, a message for it signed by `wallet`: the body `/siwe/verify` takes. */
export async function signedBody(
  browser: TestClient,
  wallet: PrivateKeyAccount,
  parts: MessageParts = {},
): Promise<{ message: string; signature: string }> {
  const message = siweMessage(wallet, await nonceFrom(browser), parts);
  return { message, signature: await wallet.signMessage({ message }) };
}

export interface VerifyAnswer {
  token: string;
  success: boolean;
  user: { id: string; walletAddress: string; chainId: number };
}

export { client };
