import { describe, expect, it } from "vitest";
import { signUp } from "./support/flows.ts";
import { url } from "./support/instances.ts";
import { ada, answer, authorize, pairPerTest, pkce, REDIRECT, register } from "./support/oauth-provider.ts";

/**
 * `@latchkey/oauth-provider` beside the reference's `oauthProvider()`: repeated form members
 * and logout (DIVERGENCES.md rows 142-149), each asserted on both sides.
 */
const pairWith = pairPerTest();
const formRequest = (path: string, body: URLSearchParams) =>
  new Request(url(path), { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: body.toString() });

describe("oauth-provider: repeated members and logout (DIVERGENCES.md rows 142-149)", () => {
  it("repeated client_id or client_secret: both refuse with the same invalid_request", async () => {
    const p = await pairWith();
    const { cookie } = await signUp(p.reference, ada);
    const c = await register(p.reference, cookie, { token_endpoint_auth_method: "client_secret_post" });
    for (const member of ["client_id", "client_secret"]) {
      const bodies = [];
      for (const side of [p.reference, p.latchkey]) {
        const { verifier, challenge } = await pkce();
        const code = await authorize(side, cookie, c.client_id, challenge);
        const body = new URLSearchParams({ grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: REDIRECT, client_id: c.client_id, client_secret: c.client_secret });
        body.append(member, "another");
        const a = await answer(await side(formRequest("/oauth2/token", body)));
        bodies.push([a.status, a.body]);
      }
      expect(bodies[0]).toEqual([400, { error: "invalid_request", error_description: `${member} must not be repeated` }]);
      expect(bodies[1]).toEqual(bodies[0]);
    }
  });

  it("row 142: a token request repeating code or grant_type — the reference keeps the last value and redeems the code, Latchkey refuses it (RFC 6749 §3.1) and leaves the code", async () => {
    const p = await pairWith();
    const { cookie } = await signUp(p.reference, ada);
    const c = await register(p.reference, cookie, { token_endpoint_auth_method: "client_secret_post" });
    const results: unknown[] = [];
    for (const side of [p.reference, p.latchkey]) {
      const { verifier, challenge } = await pkce();
      const code = await authorize(side, cookie, c.client_id, challenge);
      const base = { code_verifier: verifier, redirect_uri: REDIRECT, client_id: c.client_id, client_secret: c.client_secret };
      const codeTwice = new URLSearchParams({ grant_type: "authorization_code", ...base, code: "not-the-code" });
      codeTwice.append("code", code);
      const first = await answer(await side(formRequest("/oauth2/token", codeTwice)));
      const grantTwice = new URLSearchParams({ grant_type: "refresh_token", ...base, code });
      grantTwice.append("grant_type", "authorization_code");
      const second = await answer(await side(formRequest("/oauth2/token", grantTwice)));
      const shape = (a: Awaited<ReturnType<typeof answer>>) => (a.status === 200 ? 200 : [a.status, a.body]);
      results.push([shape(first), shape(second)]);
    }
    // The reference: the last code is redeemed; the repeated grant_type then finds it spent.
    expect(results[0]).toEqual([200, [400, { error: "invalid_grant", error_description: "invalid code" }]]);
    // Latchkey: both refused before anything is read; the code is still there for its holder.
    expect(results[1]).toEqual([
      [400, { error: "invalid_request", error_description: "code must not be repeated" }],
      [400, { error: "invalid_request", error_description: "grant_type must not be repeated" }],
    ]);
  });
});
