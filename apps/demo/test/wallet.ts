import type { Page } from "playwright-core";
import { privateKeyToAccount } from "viem/accounts";

/** A fixed test key (never funded anywhere): its address is what the demo must show. */
const TEST_PRIVATE_KEY = "0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318";

/**
 * Gives `page` a minimal EIP-1193 wallet as `window.ethereum`: one account on chain 1, and
 * `personal_sign` done in the test process by viem with {@link TEST_PRIVATE_KEY} (the page calls
 * it through a Playwright binding, so the key never enters the page). Returns the address.
 */
export async function injectTestWallet(page: Page): Promise<{ address: string; signed: string[] }> {
  const account = privateKeyToAccount(TEST_PRIVATE_KEY);
  const signed: string[] = [];
  await page.exposeFunction("demoTestWalletSign", async (message: string) => {
    signed.push(message);
    return account.signMessage({ message });
  });
  await page.addInitScript((address: string) => {
    const sign = (window as unknown as { demoTestWalletSign(message: string): Promise<string> }).demoTestWalletSign;
    (window as unknown as { ethereum: unknown }).ethereum = {
      isDemoTestWallet: true,
      async request({ method, params }: { method: string; params?: unknown[] }): Promise<unknown> {
        if (method === "eth_requestAccounts" || method === "eth_accounts") return [address];
        if (method === "eth_chainId") return "0x1";
        if (method === "personal_sign") {
          const [message, from] = params as [string, string];
          if (from.toLowerCase() !== address.toLowerCase()) throw new Error("unknown account");
          return sign(message);
        }
        throw new Error(`unsupported method ${method}`);
      },
    };
  }, account.address);
  return { address: account.address, signed };
}
