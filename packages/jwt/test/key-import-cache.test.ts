import { TEST_SECRET } from "@latchkey/test-support";
import { describe, expect, it } from "vitest";
import { importPrivateKey, importPublicKey, newKeyRow } from "../src/key-pair.ts";
import { resolveJwtOptions } from "../src/options.ts";
import type { JwkRow } from "../src/index.ts";

const options = resolveJwtOptions();
const row = async (): Promise<JwkRow> => ({ id: crypto.randomUUID(), ...(await newKeyRow(options.keyPairConfig, options, TEST_SECRET)) });

describe("imported keys are remembered by what they were made from", () => {
  it("the same row text imports once; another key's text is another key", async () => {
    const [a, b] = [await row(), await row()];
    expect(await importPublicKey(a, options)).toBe(await importPublicKey({ ...a }, options));
    expect(await importPrivateKey(a, options, TEST_SECRET)).toBe(await importPrivateKey({ ...a }, options, TEST_SECRET));
    expect(await importPublicKey(b, options)).not.toBe(await importPublicKey(a, options));
    expect(await importPrivateKey(b, options, TEST_SECRET)).not.toBe(await importPrivateKey(a, options, TEST_SECRET));
  });

  it("a wrong secret fails every time, and does not stop the right one from working", async () => {
    const a = await row();
    await expect(importPrivateKey(a, options, "another-secret-another-secret-another")).rejects.toThrow(/Failed to decrypt private key/);
    await expect(importPrivateKey(a, options, "another-secret-another-secret-another")).rejects.toThrow(/Failed to decrypt private key/);
    const key = await importPrivateKey(a, options, TEST_SECRET);
    expect(key.type).toBe("private");
  });
});
