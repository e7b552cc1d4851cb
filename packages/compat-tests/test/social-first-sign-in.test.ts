import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLIENT_ID } from "@latchkey/test-support";
import { url } from "./support/instances.ts";
import { normalizeJson } from "./support/normalize.ts";
import {
  createSocialPair,
  LATCHKEY_PROVIDERS,
  throughIdP,
  type SocialPair,
  type Side,
} from "./support/social-pair.ts";
import { describeRedirect, onBoth, startedState } from "./support/social-wire.ts";

/**
 * A first social sign-in side by side: the same IdP account through the reference and through
 * Latchkey from the same stored rows; the redirect, the user, account and session rows each
 * writes, and `/list-accounts` for the new session.
 */
let pair: SocialPair;

for (const latchkeyProvider of LATCHKEY_PROVIDERS) {
  describe(`Latchkey with ${latchkeyProvider}`, () => {
    beforeAll(async () => {
      pair = await createSocialPair({ latchkeyProvider });
    });
    afterAll(() => pair.close());

    const now = () => Date.now();
    const within = (iso: unknown, target: number, slackMs = 10_000) =>
      typeof iso === "string" && Math.abs(Date.parse(iso) - target) < slackMs;

    /** A whole first sign-in of `sub` on `side`: the final redirect, the rows written, /list-accounts. */
    async function firstSignIn(side: Side, sub: string, body: Record<string, unknown>) {
      const browser = pair.browser(side);
      const started = await startedState(browser, body);
      const nonce = new URL(started.url).searchParams.get("nonce");
      const callbackURL = await throughIdP(pair.idp, browser, sub, started.url);
      const response = await browser.send(callbackURL.href);
      const redirect = await describeRedirect(response);
      const email = pair.idp.accounts.get(sub)?.email ?? "";
      const user = pair.db.prepare(`SELECT * FROM "user" WHERE "email" = ?`).all([email])[0] as Record<
        string,
        unknown
      >;
      const account = pair.db
        .prepare(`SELECT * FROM "account" WHERE "userId" = ?`)
        .all([user.id])[0] as Record<string, unknown>;
      const session = pair.db
        .prepare(`SELECT * FROM "session" WHERE "userId" = ?`)
        .all([user.id])[0] as Record<string, unknown>;
      const list = await browser.send(url("/list-accounts"));
      return { redirect, user, account, session, nonce, list: (await list.json()) as unknown, at: now() };
    }

    describe("first social sign-in: redirect, stored rows, /list-accounts", () => {
      it("writes the same user, account and session rows, and lists the same account", async () => {
        const both = await onBoth(pair, (side) =>
          firstSignIn(side, "alice-sub", { callbackURL: "/dashboard", newUserCallbackURL: "/welcome" }),
        );
        for (const side of ["reference", "latchkey"] as const) {
          const r = both[side];
          expect(r.redirect.location, side).toBe("/welcome");
          expect(r.user, side).toMatchObject({
            name: "Alice",
            email: "alice@example.com",
            emailVerified: 1,
            image: "https://img.test/a.png",
          });
          expect(r.account, side).toMatchObject({
            accountId: "alice-sub",
            providerId: "idp",
            userId: r.user.id,
            // Comma-separated, in the token response's order.
            scope: "openid,profile,email",
            refreshTokenExpiresAt: null,
            password: null,
          });
          // The IdP's ID token, stored as received: bound to the nonce of this flow.
          const payload = JSON.parse(
            Buffer.from(String(r.account.idToken).split(".")[1] ?? "", "base64url").toString(),
          ) as Record<string, unknown>;
          expect(payload, side).toMatchObject({ sub: "alice-sub", aud: CLIENT_ID, nonce: r.nonce });
          // expires_in 3600 from the IdP.
          expect(within(r.account.accessTokenExpiresAt, r.at + 3_600_000), side).toBe(true);
          expect(r.account.accessToken, side).toMatch(/^[A-Za-z0-9_-]{43}$/);
          expect(r.account.refreshToken, side).toMatch(/^[A-Za-z0-9_-]{43}$/);
        }
        const shape = (r: (typeof both)["reference"]) => ({
          redirect: r.redirect,
          user: normalizeJson(r.user, new Set()),
          account: normalizeJson(
            {
              ...r.account,
              accessToken: "<at>",
              refreshToken: "<rt>",
              idToken: "<jwt>",
              accessTokenExpiresAt: "<+1h>",
            },
            new Set(),
          ),
          session: normalizeJson(r.session, new Set()),
          list: normalizeJson(r.list, new Set()),
        });
        expect(shape(both.latchkey)).toEqual(shape(both.reference));
        expect(both.reference.list).toEqual([
          expect.objectContaining({
            providerId: "idp",
            accountId: "alice-sub",
            scopes: ["openid", "profile", "email"],
          }),
        ]);
      });

      it("a provider without an email: email_not_found on both, nothing written", async () => {
        const both = await onBoth(pair, async (side) => {
          const browser = pair.browser(side);
          const started = await startedState(browser, { callbackURL: "/d", errorCallbackURL: "/oops" });
          const callbackURL = await throughIdP(pair.idp, browser, "noemail-sub", started.url);
          const users = pair.db.prepare(`SELECT COUNT(*) AS n FROM "user"`).all([])[0];
          const redirect = await describeRedirect(await browser.send(callbackURL.href));
          expect(pair.db.prepare(`SELECT COUNT(*) AS n FROM "user"`).all([])[0], side).toEqual(users);
          return redirect;
        });
        expect(both.reference.location).toBe("/oops?error=email_not_found");
        expect(both.latchkey).toEqual(both.reference);
      });
    });
  });
}
