import type { BetterAuthOptions } from "better-auth";
import { createAuthClient } from "better-auth/client";
import { symmetricDecrypt } from "better-auth/crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "@latchkey/test-support";
import { signUp } from "./support/flows.ts";
import { sharedKV } from "./support/rate-limit-pair.ts";
import { BASE_PATH, BASE_URL, jsonPost, SECRET, url } from "./support/instances.ts";
import { normalizeJson } from "./support/normalize.ts";
import {
  createSocialPair,
  LATCHKEY_PROVIDERS,
  sessionOn,
  throughIdP,
  type SocialPair,
  type Side,
} from "./support/social-pair.ts";
import { describeAuthorizeURL, startedState, stateRow } from "./support/social-wire.ts";

/**
 * A social sign-in that starts on one implementation and finishes on the other, both ways:
 * the OAuth state row (verification table) and the signed `better-auth.state` cookie one side
 * writes are read by the other, and the session, user and account it creates serve both.
 */
const OTHER: Record<Side, Side> = { reference: "latchkey", latchkey: "reference" };
const DIRECTIONS = [
  ["reference", "latchkey"],
  ["latchkey", "reference"],
] as const;

type Row = Record<string, unknown>;
const rowsOf = (pair: SocialPair, table: string, column: string, value: unknown): Row[] =>
  pair.db.prepare(`SELECT * FROM "${table}" WHERE "${column}" = ?`).all([value]) as Row[];

/** sign-in/social on `start`, the IdP as `sub`, the callback on `finish`; answers the callback's response. */
async function crossSignIn(pair: SocialPair, start: Side, finish: Side, sub: string, body: Row = {}) {
  const browser = pair.browser(start);
  const started = await startedState(browser, {
    callbackURL: "/dashboard",
    newUserCallbackURL: "/welcome",
    ...body,
  });
  const callbackURL = await throughIdP(pair.idp, browser, sub, started.url);
  expect(callbackURL.searchParams.get("state")).toBe(started.state);
  const response = await browser.to(finish).send(callbackURL.href);
  return { browser, response, state: started.state };
}

/** A fetch for `createAuthClient` that goes through `browser` (its cookies, its current side's handler). */
function viaBrowser(browser: Browser) {
  return async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const body = request.method === "GET" || request.method === "HEAD" ? undefined : await request.text();
    return browser.send(request.url, { method: request.method, headers: request.headers, body });
  };
}

for (const latchkeyProvider of LATCHKEY_PROVIDERS) {
  describe(`Latchkey with ${latchkeyProvider}`, () => {
    describe("social sign-in across implementations (one database, one IdP)", () => {
      let pair: SocialPair;
      beforeAll(async () => {
        pair = await createSocialPair({ latchkeyProvider });
      });
      afterAll(() => pair.close());

      const subs = { reference: "alice-sub", latchkey: "bob-sub" } as const;
      for (const [start, finish] of DIRECTIONS) {
        it(`started on ${start}, finished on ${finish}: a new user signed in, the session valid on both`, async () => {
          const sub = subs[start];
          const email = pair.idp.accounts.get(sub)!.email!;
          const { browser, response, state } = await crossSignIn(pair, start, finish, sub);
          expect(response.status).toBe(302);
          expect(response.headers.get("location")).toBe("/welcome");
          // The finishing side consumed the other's state row and expired its cookie.
          expect(stateRow(pair, state)).toBeUndefined();
          expect(response.headers.getSetCookie().find((c) => c.startsWith("better-auth.state="))).toMatch(
            /^better-auth\.state=; Max-Age=0; Path=\/; HttpOnly; SameSite=Lax$/,
          );
          expect(browser.appCookies().has("better-auth.state")).toBe(false);

          const onFinish = await sessionOn(browser);
          const onStart = await sessionOn(browser.to(start));
          expect(onFinish?.user.email).toBe(email);
          expect(onStart?.session.token).toBe(onFinish?.session.token);
          const [user] = rowsOf(pair, "user", "email", email);
          expect(rowsOf(pair, "account", "userId", user!.id)).toEqual([
            expect.objectContaining({ providerId: "idp", accountId: sub, scope: "openid,profile,email" }),
          ]);
          // /list-accounts answers the same on both for that session.
          const lists = await Promise.all(
            (["reference", "latchkey"] as const).map(async (side) =>
              normalizeJson(await (await browser.to(side).send(url("/list-accounts"))).json(), new Set()),
            ),
          );
          expect(lists[1]).toEqual(lists[0]);
        });
      }

      for (const [start, finish] of DIRECTIONS) {
        it(`a returning user (first signed in on ${finish}) signs in again ${start} → ${finish}: same user, no new rows, tokens updated`, async () => {
          const sub = start === "reference" ? "carol-sub" : "dave-sub";
          await crossSignIn(pair, finish, finish, sub);
          const email = pair.idp.accounts.get(sub)!.email!;
          const [user] = rowsOf(pair, "user", "email", email);
          const [before] = rowsOf(pair, "account", "userId", user!.id);
          const { browser, response } = await crossSignIn(pair, start, finish, sub);
          expect(response.headers.get("location")).toBe("/dashboard");
          expect((await sessionOn(browser))?.user.id).toBe(user!.id);
          const after = rowsOf(pair, "account", "userId", user!.id);
          expect(after).toHaveLength(1);
          expect(after[0]!.id).toBe(before!.id);
          expect(after[0]!.accessToken).not.toBe(before!.accessToken);
          expect(rowsOf(pair, "user", "email", email)).toHaveLength(1);
        });
      }

      for (const [start, finish] of DIRECTIONS) {
        it(`/link-social on ${start}, callback on ${finish}: the IdP account joins the password user`, async () => {
          const email = start === "reference" ? "erin@example.com" : "frank@example.com";
          const sub = start === "reference" ? "erin-sub" : "frank-sub";
          const signed = await signUp(pair[start], { name: "Linker", email, password: "password-1234" });
          const browser = pair.browser(start);
          const link = await browser.post(
            url("/link-social"),
            { provider: "idp", callbackURL: "/settings" },
            { cookie: signed.cookie },
          );
          expect(link.status).toBe(200);
          const { url: authorizeURL } = (await link.json()) as { url: string };
          const state = new URL(authorizeURL).searchParams.get("state")!;
          expect(stateRow(pair, state)?.value.link).toEqual({ email, userId: signed.userId });
          const callbackURL = await throughIdP(pair.idp, browser, sub, authorizeURL);
          const response = await browser.to(finish).send(callbackURL.href);
          expect(response.headers.get("location")).toBe("/settings");
          const accounts = rowsOf(pair, "account", "userId", signed.userId);
          expect(accounts.map((a) => a.providerId).sort()).toEqual(["credential", "idp"]);
          expect(accounts.find((a) => a.providerId === "idp")).toMatchObject({ accountId: sub });
        });
      }

      it("a state cookie signed by one side and a state row written by the other: both checks pass either way", async () => {
        // The state cookie is `<state>.<HMAC-SHA256(secret, state)>`; each side verifies the other's.
        for (const [start, finish] of DIRECTIONS) {
          const browser = pair.browser(start);
          const { state } = await startedState(browser, { callbackURL: "/d", errorCallbackURL: "/oops" });
          const cookie = decodeURIComponent(browser.appCookies().get("better-auth.state") ?? "");
          expect(cookie.split(".")[0]).toBe(state);
          // No code: the state checks pass and the callback stops at no_code, on the flow's error URL.
          const response = await browser.to(finish).send(url(`/callback/idp?state=${state}`));
          expect(response.headers.get("location"), `${start} → ${finish}`).toBe("/oops?error=no_code");
          // A tampered signature fails the other side's check.
          const second = await startedState(pair.browser(start), {
            callbackURL: "/d",
            errorCallbackURL: "/oops",
          });
          const forged = await pair[finish](
            new Request(url(`/callback/idp?state=${second.state}`), {
              headers: { cookie: `better-auth.state=${second.state}.${"A".repeat(43)}%3D` },
            }),
          );
          expect(forged.headers.get("location"), `${start} → ${finish} (forged)`).toBe(
            "/oops?error=state_mismatch",
          );
        }
      });
    });

    describe("OAuth state in secondary storage (spec, Social sign-in 12), one store for both", () => {
      const kv = sharedKV();
      let pair: SocialPair;
      beforeAll(async () => {
        pair = await createSocialPair({
          latchkeyProvider,
          reference: { secondaryStorage: kv.storage as NonNullable<BetterAuthOptions["secondaryStorage"]> },
          latchkey: { secondaryStorage: kv.storage },
        });
      });
      afterAll(() => pair.close());

      for (const [start, finish] of DIRECTIONS) {
        it(`started on ${start} (state at verification:<state>), finished on ${finish}`, async () => {
          const sub = start === "reference" ? "alice-sub" : "bob-sub";
          const browser = pair.browser(start);
          const started = await startedState(browser, { callbackURL: "/dashboard" });
          const stored = JSON.parse(kv.value(`verification:${started.state}`) ?? "null") as {
            value: string;
          } | null;
          expect(JSON.parse(stored?.value ?? "{}")).toMatchObject({
            callbackURL: "/dashboard",
            oauthState: started.state,
          });
          const callbackURL = await throughIdP(pair.idp, browser, sub, started.url);
          const response = await browser.to(finish).send(callbackURL.href);
          expect(response.headers.get("location")).toBe("/dashboard");
          expect(kv.value(`verification:${started.state}`)).toBeUndefined();
          const onFinish = await sessionOn(browser);
          expect(onFinish?.user.email).toBe(pair.idp.accounts.get(sub)!.email);
          expect((await sessionOn(browser.to(start)))?.session.token).toBe(onFinish?.session.token);
        });
      }
    });

    describe("better-auth/client signIn.social and linkSocial against Latchkey", () => {
      let pair: SocialPair;
      beforeAll(async () => {
        pair = await createSocialPair({ latchkeyProvider });
      });
      afterAll(() => pair.close());

      /** signIn.social → IdP → callback → getSession → listAccounts, all through the client on `side`. */
      async function clientSignIn(side: Side, sub: string) {
        const browser = pair.browser(side);
        const client = createAuthClient({
          baseURL: `${BASE_URL}${BASE_PATH}`,
          fetchOptions: { customFetchImpl: viaBrowser(browser) },
        });
        const started = await client.signIn.social({ provider: "idp", callbackURL: "/dashboard" });
        expect(started.error).toBeNull();
        // The redirect branch of the union: `{ url, redirect }`.
        const data = started.data as { url: string; redirect: boolean };
        const callbackURL = await throughIdP(pair.idp, browser, sub, data.url);
        const landed = await browser.send(callbackURL.href);
        const session = await client.getSession();
        const accounts = await client.listAccounts();
        return {
          started: { ...data, url: describeAuthorizeURL(data.url) },
          landed: landed.headers.get("location"),
          session: normalizeJson(session.data, new Set()),
          accounts: normalizeJson(accounts.data, new Set()),
          errors: [started.error, session.error, accounts.error],
          client,
          browser,
        };
      }

      it("signIn.social runs the whole redirect flow against Latchkey, with the reference server's answers", async () => {
        const ours = await clientSignIn("latchkey", "alice-sub");
        expect(ours.started.redirect).toBe(true);
        expect(ours.landed).toBe("/dashboard");
        expect(ours.session).toMatchObject({ user: { email: "alice@example.com", name: "Alice" } });
        expect(ours.accounts).toEqual([
          expect.objectContaining({ providerId: "idp", accountId: "alice-sub" }),
        ]);
        // The same person through the same client against the reference (its rows removed first).
        pair.db.prepare(`DELETE FROM "user" WHERE "email" = ?`).run(["alice@example.com"]);
        const theirs = await clientSignIn("reference", "alice-sub");
        const compared = (r: typeof ours) => ({ ...r, client: undefined, browser: undefined });
        expect(compared(ours)).toEqual(compared(theirs));
      });

      it("linkSocial adds the IdP account to a Latchkey session (the client's body, Latchkey's callback)", async () => {
        const browser = pair.browser("latchkey");
        const client = createAuthClient({
          baseURL: `${BASE_URL}${BASE_PATH}`,
          fetchOptions: { customFetchImpl: viaBrowser(browser) },
        });
        const signed = await client.signUp.email({
          name: "Bob",
          email: "bob@example.com",
          password: "password-1234",
        });
        expect(signed.error).toBeNull();
        const linked = await client.linkSocial({ provider: "idp", callbackURL: "/settings" });
        expect(linked.error).toBeNull();
        expect(linked.data).toMatchObject({ redirect: true, url: expect.stringContaining(pair.idp.issuer) });
        const callbackURL = await throughIdP(pair.idp, browser, "bob-sub", linked.data!.url);
        expect((await browser.send(callbackURL.href)).headers.get("location")).toBe("/settings");
        const accounts = await client.listAccounts();
        expect(accounts.data?.map((a) => a.providerId).sort()).toEqual(["credential", "idp"]);
        // The reference serves the same list for that Latchkey session.
        const raw = async (side: Side) =>
          normalizeJson(await (await browser.to(side).send(url("/list-accounts"))).json(), new Set());
        expect(await raw("reference")).toEqual(await raw("latchkey"));
      });

      it("an unknown provider: the same client error from both servers", async () => {
        const errors = await Promise.all(
          (["latchkey", "reference"] as const).map(async (side) => {
            const client = createAuthClient({
              baseURL: `${BASE_URL}${BASE_PATH}`,
              fetchOptions: { customFetchImpl: viaBrowser(pair.browser(side)) },
            });
            const answer = await client.signIn.social({ provider: "nope", callbackURL: "/d" });
            return { data: answer.data, error: answer.error };
          }),
        );
        expect(errors[0]).toEqual(errors[1]);
        expect(errors[0]!.error).toMatchObject({ status: 404, code: "PROVIDER_NOT_FOUND" });
      });
    });

    describe("encrypted tokens (account.encryptOAuthTokens) written by a real sign-in on one side, used by the other", () => {
      let pair: SocialPair;
      beforeAll(async () => {
        pair = await createSocialPair({
          latchkeyProvider,
          reference: { account: { encryptOAuthTokens: true } },
          latchkey: { account: { encryptOAuthTokens: true } },
        });
      });
      afterAll(() => pair.close());

      const post = async (side: Side, path: string, body: unknown, cookie: string) => {
        const response = await pair[side](jsonPost(path, body, { cookie }));
        return { status: response.status, body: (await response.json()) as Record<string, unknown> };
      };
      /** The IdP's UserInfo for `accessToken`: proves a decrypted token is the real one. */
      const userInfo = async (accessToken: unknown) =>
        (
          await fetch(`${pair.idp.issuer}/me`, {
            headers: { authorization: `Bearer ${String(accessToken)}` },
          })
        ).status;

      for (const writer of ["reference", "latchkey"] as const) {
        const reader = OTHER[writer];
        it(`rows ${writer} wrote: ${reader}'s /get-access-token and /list-accounts read them as ${writer} does, and refresh them`, async () => {
          const sub = writer === "reference" ? "carol-sub" : "dave-sub";
          const { browser } = await crossSignIn(pair, writer, writer, sub);
          const cookie = browser.appCookieHeader();
          const email = pair.idp.accounts.get(sub)!.email!;
          const [user] = rowsOf(pair, "user", "email", email);
          const [account] = rowsOf(pair, "account", "userId", user!.id);
          // Stored encrypted (hex), the ID token plain.
          expect(account!.accessToken).toMatch(/^[0-9a-f]+$/);
          expect(account!.refreshToken).toMatch(/^[0-9a-f]+$/);
          expect(String(account!.idToken).split(".")).toHaveLength(3);
          const plainAccess = await symmetricDecrypt({ key: SECRET, data: String(account!.accessToken) });

          const theirs = await post(writer, "/get-access-token", { accountId: account!.id }, cookie);
          const ours = await post(reader, "/get-access-token", { accountId: account!.id }, cookie);
          expect(ours).toEqual(theirs);
          expect(ours.body).toMatchObject({
            accessToken: plainAccess,
            scopes: ["openid", "profile", "email"],
          });
          expect(await userInfo(ours.body.accessToken)).toBe(200);
          const list = async (side: Side) =>
            (await pair[side](new Request(url("/list-accounts"), { headers: { cookie } }))).json();
          expect(await list(reader)).toEqual(await list(writer));

          // Expired: the reader refreshes at the IdP with the refresh token the writer encrypted.
          pair.db
            .prepare(`UPDATE "account" SET "accessTokenExpiresAt" = ? WHERE "id" = ?`)
            .run([new Date(Date.now() - 60_000).toISOString(), account!.id]);
          const refreshed = await post(reader, "/get-access-token", { accountId: account!.id }, cookie);
          expect(refreshed.status).toBe(200);
          expect(refreshed.body.accessToken).not.toBe(plainAccess);
          expect(await userInfo(refreshed.body.accessToken)).toBe(200);
          // What the reader stored, the writer decrypts.
          const back = await post(writer, "/get-access-token", { accountId: account!.id }, cookie);
          expect(back.body.accessToken).toBe(refreshed.body.accessToken);
        });
      }
    });
  });
}
