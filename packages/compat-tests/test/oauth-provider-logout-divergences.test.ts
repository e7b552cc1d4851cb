import { createHmac } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { settleBackchannelLogouts } from "@latchkey/oauth-provider";
import { describe, expect, it } from "vitest";
import { signUp } from "./support/flows.ts";
import { jsonPost, url, type Handler } from "./support/instances.ts";
import { ada, answer, authorize, pairPerTest, pkce, redeem, REDIRECT, register } from "./support/oauth-provider.ts";

/**
 * `@latchkey/oauth-provider` beside the reference's `oauthProvider()`: repeated form members
 * and logout (DIVERGENCES.md rows 129-149), each asserted on both sides.
 */
const pairWith = pairPerTest();
const formRequest = (path: string, body: URLSearchParams) =>
  new Request(url(path), { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: body.toString() });

describe("oauth-provider: repeated members and logout (DIVERGENCES.md rows 129-149)", () => {
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

  it("row 129: a token request repeating code or grant_type — the reference keeps the last value and redeems the code, Latchkey refuses it (RFC 6749 §3.1) and leaves the code", async () => {
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

  it("end-session without a usable hint: the same answers (confirmation required, unknown client, client not enabled, the confirmation page)", async () => {
    const p = await pairWith();
    const { cookie } = await signUp(p.reference, ada);
    const c = await register(p.reference, cookie, { post_logout_redirect_uris: ["https://client.example.com/bye"] });
    const enabled = await register(p.reference, cookie, { post_logout_redirect_uris: ["https://client.example.com/bye"] });
    p.db.prepare(`update "oauthClient" set "enableEndSession" = 1 where "clientId" = ?`).run([enabled.client_id]);
    const ask = (side: Handler, query: Record<string, string>, headers: Record<string, string> = {}) =>
      side(new Request(url(`/oauth2/end-session?${new URLSearchParams(query)}`), { headers: { cookie, ...headers } }));
    for (const query of [{}, { client_id: "unknown" }, { client_id: c.client_id }, { client_id: enabled.client_id, post_logout_redirect_uri: "https://client.example.com/bye" }] as Record<string, string>[]) {
      const [r, l] = [await answer(await ask(p.reference, query)), await answer(await ask(p.latchkey, query))];
      expect([l.status, l.body], JSON.stringify(query)).toEqual([r.status, r.body]);
    }
    const pages = [];
    for (const side of [p.reference, p.latchkey]) {
      const res = await ask(side, { client_id: enabled.client_id }, { accept: "text/html", "sec-fetch-mode": "navigate" });
      pages.push([res.status, res.headers.get("content-type"), res.headers.get("content-security-policy"), (await res.text()).includes("data-oidc-logout-confirmation")]);
    }
    expect(pages[1]).toEqual(pages[0]);
    expect(pages[0]).toEqual([200, "text/html; charset=utf-8", "default-src 'none'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'", true]);
  });

  it("pairwise subjects: both compute the same sub for the same secret and client", async () => {
    const secret = "pairwise-compat-secret-0123456789-abcdef";
    const p = await pairWith({ pairwiseSecret: secret } as never);
    const { cookie, userId } = await signUp(p.reference, ada);
    const c = await register(p.reference, cookie, { subject_type: "pairwise" });
    const subs = [];
    for (const side of [p.reference, p.latchkey]) {
      const { verifier, challenge } = await pkce();
      const tokens = (await (await redeem(side, c, await authorize(side, cookie, c.client_id, challenge), verifier)).json()) as { id_token: string };
      subs.push(JSON.parse(Buffer.from(tokens.id_token.split(".")[1]!, "base64url").toString()).sub);
    }
    expect(subs[1]).toBe(subs[0]);
    expect(subs[0]).toBe(createHmac("sha256", secret).update(`client.example.com.${userId}`).digest("base64"));
  });

  it("row 130: back-channel logout — the reference holds the sign-out answer until the RP answers and tries once; Latchkey answers at once and retries a 5xx", async () => {
    const hits: number[] = [];
    const server = createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        hits.push(Date.now());
        setTimeout(() => res.writeHead(503).end(), 700);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const listener = `http://127.0.0.1:${(server.address() as AddressInfo).port}/bc`;
    try {
      const p = await pairWith({ backchannelLogout: { allowedHosts: ["127.0.0.1"], attempts: 2, timeout: 2000 } } as never);
      const results = [];
      let n = 0;
      for (const side of [p.reference, p.latchkey]) {
        const { cookie } = await signUp(side, { ...ada, email: `bc${++n}@example.com` });
        const c = await register(side, cookie);
        // Both refuse a loopback http URI at registration; the RP's URI is set on the row (an operator's edit).
        p.db.prepare(`update "oauthClient" set "backchannelLogoutUri" = ? where "clientId" = ?`).run([listener, c.client_id]);
        const { verifier, challenge } = await pkce();
        expect((await redeem(side, c, await authorize(side, cookie, c.client_id, challenge), verifier)).status).toBe(200);
        hits.length = 0;
        const started = Date.now();
        const out = await side(jsonPost("/sign-out", {}, { cookie }));
        const took = Date.now() - started;
        expect(out.status).toBe(200);
        await settleBackchannelLogouts();
        results.push({ held: took >= 650, attempts: hits.length });
      }
      expect(results[0]).toEqual({ held: true, attempts: 1 });
      expect(results[1]).toEqual({ held: false, attempts: 2 });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
