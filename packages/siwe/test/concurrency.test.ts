import { DATABASE_KINDS, type TestAuth } from "@latchkey/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, newWallet, signedBody, siweInstance, type VerifyAnswer } from "./instance.ts";

describe.each(DATABASE_KINDS)("siwe under concurrency on %s", (kind) => {
  let t: TestAuth;
  beforeAll(async () => {
    t = await siweInstance(kind);
  });
  afterAll(() => t.close());

  it("one signed message sent 10 times at once signs in once (the nonce is single-use)", async () => {
    const browser = client(t.auth);
    const body = await signedBody(browser, newWallet());
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => client(t.auth).post<VerifyAnswer>("/siwe/verify", body)),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, ...Array(9).fill(401)]);
    for (const refused of answers.filter((a) => a.status === 401))
      expect(refused.json).toMatchObject({ code: "UNAUTHORIZED_INVALID_OR_EXPIRED_NONCE" });
    const userId = answers.find((a) => a.status === 200)!.json!.user.id;
    expect(
      await t.auth.$context.adapter.count({ model: "session", where: [{ field: "userId", value: userId }] }),
    ).toBe(1);
  });

  it("a new wallet signing in from two tabs at once becomes one user", async () => {
    const wallet = newWallet();
    const tabs = [client(t.auth), client(t.auth)];
    const bodies = await Promise.all(tabs.map((tab) => signedBody(tab, wallet)));
    const answers = await Promise.all(
      tabs.map((tab, i) => tab.post<VerifyAnswer>("/siwe/verify", bodies[i])),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(answers[0]!.json!.user.id).toBe(answers[1]!.json!.user.id);
    const users = await t.auth.$context.adapter.count({
      model: "user",
      where: [{ field: "email", value: `${wallet.address.toLowerCase()}@siwe.placeholder.invalid` }],
    });
    expect(users).toBe(1);
  });
});
