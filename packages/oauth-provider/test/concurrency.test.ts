import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseKind, TestAuth, TestClient } from "@latchkey/test-support";
import { adminClient, authorizeCode, formPost, pkcePair, providerInstance, REDIRECT, signedIn } from "./instance.ts";

const KINDS: DatabaseKind[] = ["sqlite", "postgres", "mysql"];

describe.each(KINDS)("refresh rotation under concurrency on %s", (kind) => {
  let t: TestAuth;
  let browser: TestClient;
  beforeAll(async () => {
    t = await providerInstance({}, kind);
    browser = await signedIn(t);
  });
  afterAll(() => t.close());

  // The code race (20 parallel redemptions) and its replay revocation: code-replay.test.ts.
  it("10 parallel rotations of one refresh token: exactly one new token", async () => {
    const c = await adminClient(t);
    const basic = { id: c.client_id, secret: c.client_secret! };
    const { verifier, challenge } = await pkcePair();
    const code = await authorizeCode(browser, c.client_id, challenge);
    const issued = await formPost(browser, "/oauth2/token", { grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: REDIRECT }, basic);
    const refresh = (issued.json as { refresh_token: string }).refresh_token;
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => formPost(browser, "/oauth2/token", { grant_type: "refresh_token", refresh_token: refresh }, basic)),
    );
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    for (const answer of answers.filter((a) => a.status !== 200)) expect((answer.json as { error: string }).error).toBe("invalid_grant");
  });
});
