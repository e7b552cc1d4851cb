import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorCode } from "./support/capture.ts";
import { signUp } from "./support/flows.ts";
import { createPair, jsonPost, type Pair } from "./support/instances.ts";
import { normalizeCaptured } from "./support/normalize.ts";
import { sendBoth } from "./support/send-both.ts";

/**
 * Trusted-origin entries side by side, origin checks on: a custom scheme entry covers its
 * path on a segment boundary (`myapp://host/cb` never covers `/cbevil`), a glob with several
 * stars matches alike (Latchkey's matcher no longer backtracks), and URLs past 8 KiB match
 * no entry in Latchkey only (DIVERGENCES.md row 59).
 */

const ada = { name: "Ada", email: "ada@example.com", password: "password-1234" };
const trustedOrigins = ["myapp://host/cb", "https://*-*.example.com", "exp://*/*"];

describe("trusted-origin entries (custom schemes, multi-star globs)", () => {
  let pair: Pair;
  beforeAll(async () => {
    pair = await createPair({
      originChecks: true,
      reference: { trustedOrigins },
      latchkey: { trustedOrigins },
    });
    await signUp(pair.reference, ada);
  });
  afterAll(() => pair.close());

  const signIn = (callbackURL: string) =>
    jsonPost("/sign-in/email", { email: ada.email, password: ada.password, callbackURL });

  const cases: Array<[callbackURL: string, status: number]> = [
    ["myapp://host/cb", 200],
    ["myapp://host/cb/done?x=1", 200],
    ["myapp://HOST/cb", 200],
    ["myapp://host/cbevil", 403],
    ["myapp://host/cb-evil", 403],
    ["myapp://host/cb/../evil", 403],
    ["myapp://other/cb", 403],
    ["https://pr-12.example.com/welcome", 200],
    ["https://a-b-c.example.com/", 200],
    ["https://pr12.example.com/welcome", 403],
    ["https://pr-12.example.com.evil.io/", 403],
    // A wildcard entry with a custom scheme is matched against the whole URL (it has no
    // origin), and `*` stays within one `/`-separated segment.
    ["exp://192.168.1.2:8081", 200],
    ["exp://192.168.1.2:8081/--/cb", 403],
  ];
  for (const [callbackURL, status] of cases) {
    it(`callbackURL ${callbackURL}: ${status} on both`, async () => {
      const { reference, latchkey, known } = await sendBoth(pair, signIn(callbackURL));
      expect(reference.status, "reference").toBe(status);
      if (status === 403) expect(errorCode(reference)).toBe("INVALID_CALLBACK_URL");
      expect(normalizeCaptured(latchkey, known)).toEqual(normalizeCaptured(reference, known));
    });
  }

  it("a trusted callbackURL longer than 8 KiB: the reference accepts it, Latchkey refuses it (row 59)", async () => {
    const long = `https://pr-12.example.com/${"x".repeat(9000)}`;
    const { reference, latchkey } = await sendBoth(pair, signIn(long));
    expect(reference.status).toBe(200);
    expect(latchkey.status).toBe(403);
    expect(latchkey.body).toEqual({ code: "INVALID_CALLBACK_URL", message: "Invalid callbackURL" });
    const atCap = `https://pr-12.example.com/${"x".repeat(8192 - 26)}`;
    expect(atCap).toHaveLength(8192);
    const both = await sendBoth(pair, signIn(atCap));
    expect([both.reference.status, both.latchkey.status]).toEqual([200, 200]);
  });
});
