import { describe, expect, it } from "vitest";
import { SmokeClient, uniqueEmail } from "./client.ts";

const PASSWORD = "pässwörd — ｆｕｌｌｗｉｄｔｈ";
const HASH = /^[0-9a-f]{32}:[0-9a-f]{128}$/;

/** Signs a user up on `from`, exports the stored hash, seeds it on `to`, and signs in there. */
async function hashCrosses(from: SmokeClient, to: SmokeClient, tag: string): Promise<void> {
  const email = uniqueEmail(tag);
  const signUp = await from.post("/sign-up/email", { email, password: PASSWORD, name: "Cross" });
  expect(signUp.status, signUp.text).toBe(200);
  const exported = await from.get(`/smoke/password-hash?email=${encodeURIComponent(email)}`);
  expect(exported.status).toBe(200);
  const { hash } = exported.body as { hash: string };
  expect(hash).toMatch(HASH);

  const seeded = await to.post("/smoke/seed-user", { email, name: "Cross", hash });
  expect(seeded.status, seeded.text).toBe(200);
  const wrong = await to.post("/sign-in/email", { email, password: "not the password" });
  expect(wrong.status).toBe(401);
  const signIn = await to.post("/sign-in/email", { email, password: PASSWORD });
  expect(signIn.status, signIn.text).toBe(200);
  expect(signIn.body).toMatchObject({ user: { email } });
}

/**
 * Password hashes cross runtimes both ways: one made through sign-up on `runtime` verifies in a
 * sign-in on Node (native node:crypto scrypt), and one made on Node verifies on `runtime`. The
 * password needs NFKC normalisation, so that step must match too.
 */
export function crossRuntimeSuite(runtime: string, runtimeBase: () => string, nodeBase: () => string): void {
  describe(`password hashes: ${runtime} ⇄ node`, () => {
    it(`a hash made on ${runtime} signs in on node`, async () => {
      await hashCrosses(new SmokeClient(runtimeBase()), new SmokeClient(nodeBase()), `${runtime}-to-node`);
    });

    it(`a hash made on node signs in on ${runtime}`, async () => {
      await hashCrosses(new SmokeClient(nodeBase()), new SmokeClient(runtimeBase()), `node-to-${runtime}`);
    });
  });
}
