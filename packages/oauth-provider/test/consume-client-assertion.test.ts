import { APIError } from "@latchkey/core";
import type { DatabaseKind, TestAuth } from "@latchkey/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consumeClientAssertion } from "../src/index.ts";
import { providerInstance } from "./instance.ts";

// consumeClientAssertion: the reference's export for extension client-authentication methods
// (audience, bounded lifetime, single-use `jti` after the extension verified the signature).
const KINDS: DatabaseKind[] = ["sqlite", "postgres", "mysql"];
const AUDIENCE = "http://localhost:3000/api/auth/oauth2/token";
const now = () => Math.floor(Date.now() / 1000);

/** The `error_description` of the invalid_client refusal, or "ok". */
async function outcome(run: Promise<void>): Promise<string> {
  try {
    await run;
    return "ok";
  } catch (error) {
    if (!(error instanceof APIError)) throw error;
    expect([error.status, (error.body as { error?: string }).error]).toEqual([400, "invalid_client"]);
    return String((error.body as { error_description?: string }).error_description);
  }
}

describe.each(KINDS)("consumeClientAssertion on %s", (kind) => {
  let t: TestAuth;
  beforeAll(async () => {
    t = await providerInstance({}, kind);
  });
  afterAll(() => t.close());
  const consume = (namespace: string, payload: Record<string, unknown>, opts = {}) =>
    outcome(consumeClientAssertion({ context: t.auth.$context }, opts, { namespace, payload, expectedAudience: AUDIENCE }));

  it("refuses what RFC 7523 §3 refuses, with the reference's descriptions, and writes nothing", async () => {
    const base = { aud: AUDIENCE, exp: now() + 60, jti: "j" };
    const rows = await t.auth.$context.adapter.count({ model: "oauthClientAssertion" });
    expect(await consume("m:c", { ...base, aud: "https://elsewhere.example/token" })).toBe("client assertion aud does not match the endpoint");
    expect(await consume("m:c", { ...base, aud: undefined })).toBe("client assertion aud does not match the endpoint");
    expect(await consume("m:c", { ...base, exp: undefined })).toBe("client assertion must include exp claim");
    expect(await consume("m:c", { ...base, exp: now() - 1 })).toBe("client assertion has expired");
    expect(await consume("m:c", { ...base, exp: now() + 301 })).toBe("client assertion exp is too far in the future (max 300s)");
    expect(await consume("m:c", { ...base, exp: now() + 90 }, { assertionMaxLifetime: 60 })).toBe("client assertion exp is too far in the future (max 60s)");
    expect(await consume("m:c", { ...base, iat: now() - 301 })).toBe("client assertion iat is too far in the past (max 300s)");
    expect(await consume("m:c", { ...base, jti: "" })).toBe("client assertion must include jti claim");
    expect(await t.auth.$context.adapter.count({ model: "oauthClientAssertion" })).toBe(rows);
  });

  it("an audience list naming the endpoint is accepted; a jti is single use within its namespace only", async () => {
    const payload = { aud: ["https://other.example", AUDIENCE], exp: now() + 60, jti: "shared-jti" };
    expect(await consume("hmac:client-a", payload)).toBe("ok");
    expect(await consume("hmac:client-a", payload)).toBe("client assertion jti has already been used");
    expect(await consume("hmac:client-b", payload)).toBe("ok");
    expect(await consume("other_method:client-a", payload)).toBe("ok");
  });

  it("10 parallel uses of one assertion: exactly one accepted", async () => {
    const payload = { aud: AUDIENCE, exp: now() + 60, jti: `parallel-${kind}` };
    const answers = await Promise.all(Array.from({ length: 10 }, () => consume("hmac:client-p", payload)));
    expect(answers.sort()).toEqual([...Array<string>(9).fill("client assertion jti has already been used"), "ok"]);
  });
});
