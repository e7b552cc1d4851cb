import { describe, expect, it } from "vitest";
import { signUp } from "./support/flows.ts";
import { jsonPost } from "./support/instances.ts";
import { ada, answer, authorize, form, ISSUER, pairPerTest, pkce, redeem, REDIRECT, register } from "./support/oauth-provider.ts";

/**
 * `@latchkey/oauth-provider` beside the reference's `oauthProvider()`: the deliberate
 * differences (DIVERGENCES.md rows 108-114), each asserted on both sides.
 */
const pairWith = pairPerTest();

describe("oauth-provider: divergences (DIVERGENCES.md rows 108-114)", () => {
  it("row 114: a resource added at the token or refresh request — the reference widens the grant, Latchkey refuses (spec rule 3)", async () => {
    const p = await pairWith();
    const { cookie } = await signUp(p.reference, ada);
    const c = await register(p.reference, cookie);
    const userinfo = `${ISSUER}/oauth2/userinfo`;
    const results: Array<{ code: unknown; refresh: unknown }> = [];
    for (const side of [p.reference, p.latchkey]) {
      const codeForm = async () => {
        const { verifier, challenge } = await pkce();
        const code = await authorize(side, cookie, c.client_id, challenge);
        return { grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: REDIRECT };
      };
      // A code authorized without resources, redeemed with one.
      const added = await answer(await side(form("/oauth2/token", { ...(await codeForm()), resource: userinfo }, c)));
      // A token set granted without resources, refreshed with one.
      const plain = (await (await side(form("/oauth2/token", await codeForm(), c))).json()) as Record<string, string>;
      const refreshed = await answer(await side(form("/oauth2/token", { grant_type: "refresh_token", refresh_token: plain.refresh_token!, resource: userinfo }, c)));
      const shape = (a: { status: number; body: unknown }) =>
        a.status === 200 ? { status: 200, jwt: String((a.body as { access_token: string }).access_token).split(".").length === 3 } : a;
      results.push({ code: shape(added), refresh: shape(refreshed) });
    }
    expect(results[0]).toEqual({ code: { status: 200, jwt: true }, refresh: { status: 200, jwt: true } });
    expect(results[1]).toEqual({
      code: { status: 400, noStore: true, body: { error: "invalid_target", error_description: "requested resource not authorized" } },
      refresh: { status: 400, noStore: true, body: { error: "invalid_target", error_description: "requested resource invalid" } },
    });
  });

  it("row 113: a client registered without the refresh_token grant — the reference issues it refresh tokens, Latchkey does not, and still rotates one the reference issued", async () => {
    const p = await pairWith();
    const { cookie } = await signUp(p.reference, ada);
    const c = await register(p.reference, cookie, { grant_types: ["authorization_code"] });
    const issued: Array<Record<string, string>> = [];
    for (const side of [p.reference, p.latchkey]) {
      const { verifier, challenge } = await pkce();
      const res = await redeem(side, c, await authorize(side, cookie, c.client_id, challenge), verifier);
      expect(res.status).toBe(200);
      issued.push((await res.json()) as Record<string, string>);
    }
    expect(issued[0]!.refresh_token).toMatch(/^[A-Za-z]{32}$/);
    expect(issued[1]).not.toHaveProperty("refresh_token");
    // A refresh token the reference issued to such a client keeps working on Latchkey (rows keep working).
    const rotated = await p.latchkey(form("/oauth2/token", { grant_type: "refresh_token", refresh_token: issued[0]!.refresh_token! }, c));
    expect(rotated.status).toBe(200);
    expect(((await rotated.json()) as Record<string, string>).refresh_token).toMatch(/^[A-Za-z]{32}$/);
  });

  it("row 112: a long refused value — the reference quotes it in error_description, Latchkey names it only up to 100 characters", async () => {
    const p = await pairWith({ allowUnauthenticatedClientRegistration: true });
    const long = `x${"y".repeat(150)}`;
    const body = { redirect_uris: [REDIRECT], scope: `openid ${long}` };
    const [r, l] = [await answer(await p.reference(jsonPost("/oauth2/register", body))), await answer(await p.latchkey(jsonPost("/oauth2/register", body)))];
    expect(r).toMatchObject({ status: 400, body: { error: "invalid_scope", error_description: `cannot request scope ${long}` } });
    expect(l).toMatchObject({ status: 400, body: { error: "invalid_scope", error_description: "cannot request scope (value omitted)" } });
    const short = { redirect_uris: [REDIRECT], scope: "openid admin" };
    const [rs, ls] = [await answer(await p.reference(jsonPost("/oauth2/register", short))), await answer(await p.latchkey(jsonPost("/oauth2/register", short)))];
    expect(ls.body).toEqual(rs.body);
  });

  it("row 108: a wrong PKCE verifier — the reference answers 401 invalid_request and burns the code; Latchkey 400 invalid_grant (RFC 7636 §4.6), the code still redeemable", async () => {
    const p = await pairWith();
    const { cookie } = await signUp(p.reference, ada);
    const c = await register(p.reference, cookie);
    for (const [side, want] of [
      ["reference", { wrong: { status: 401, body: { error: "invalid_request", error_description: "code verification failed" } }, after: 400 }],
      ["latchkey", { wrong: { status: 400, body: { error: "invalid_grant", error_description: "code verification failed" } }, after: 200 }],
    ] as const) {
      const { verifier, challenge } = await pkce();
      const code = await authorize(p[side], cookie, c.client_id, challenge);
      expect(await answer(await redeem(p[side], c, code, `${verifier}x`)), side).toMatchObject(want.wrong);
      expect((await redeem(p[side], c, code, verifier)).status, side).toBe(want.after);
    }
  });

  it("row 109: a wrong client secret or another client's credentials — the reference burns the code, Latchkey leaves it to its holder", async () => {
    const p = await pairWith();
    const { cookie } = await signUp(p.reference, ada);
    const c = await register(p.reference, cookie);
    const other = await register(p.reference, cookie);
    for (const intruder of [{ ...c, client_secret: "wrong" }, other]) {
      for (const [side, after] of [
        ["reference", 400],
        ["latchkey", 200],
      ] as const) {
        const { verifier, challenge } = await pkce();
        const code = await authorize(p[side], cookie, c.client_id, challenge);
        const refused = await redeem(p[side], intruder, code, verifier);
        expect(refused.status, side).toBeGreaterThanOrEqual(400);
        const holder = await redeem(p[side], c, code, verifier);
        expect(holder.status, `${side}: the holder redeems after the intruder`).toBe(after);
      }
    }
  });

  it("row 110: revoking an unknown or already-revoked token — the reference 400 invalid_request, Latchkey 200 (RFC 7009 §2.2)", async () => {
    const p = await pairWith();
    const { cookie } = await signUp(p.reference, ada);
    const c = await register(p.reference, cookie);
    const unknown = form("/oauth2/revoke", { token: "unknown-token" }, c);
    expect(await answer(await p.reference(unknown.clone()))).toMatchObject({ status: 400, body: { error: "invalid_request", error_description: "token not found" } });
    expect(await answer(await p.latchkey(unknown))).toMatchObject({ status: 200 });
    const { verifier, challenge } = await pkce();
    const tokens = (await (await redeem(p.latchkey, c, await authorize(p.latchkey, cookie, c.client_id, challenge), verifier)).json()) as Record<string, string>;
    const revoke = () => form("/oauth2/revoke", { token: tokens.refresh_token!, token_type_hint: "refresh_token" }, c);
    expect((await p.latchkey(revoke())).status).toBe(200);
    expect(await answer(await p.reference(revoke()))).toMatchObject({ status: 400, body: { error: "invalid_request", error_description: "refresh token revoked" } });
    expect((await p.latchkey(revoke())).status).toBe(200);
  });

  it("row 111: validation errors of the token and registration routes — the reference without Cache-Control: no-store, Latchkey with it", async () => {
    const p = await pairWith({ allowUnauthenticatedClientRegistration: true });
    const requests = [
      () => form("/oauth2/token", {}),
      () => jsonPost("/oauth2/register", { redirect_uris: "not-a-list" }),
      () => jsonPost("/oauth2/register", { redirect_uris: [REDIRECT], skip_consent: true }),
    ];
    for (const request of requests) {
      const [r, l] = [await answer(await p.reference(request())), await answer(await p.latchkey(request()))];
      expect([r.status, l.status]).toEqual([400, 400]);
      expect([r.noStore, l.noStore]).toEqual([false, true]);
    }
  });
});
