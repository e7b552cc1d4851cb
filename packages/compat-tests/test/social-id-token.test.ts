import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jsonPost, type Handler } from "./support/instances.ts";
import { normalizeJson } from "./support/normalize.ts";
import { createSocialPair, LATCHKEY_PROVIDERS, type SocialPair } from "./support/social-pair.ts";
import { describeCookies, onBoth } from "./support/social-wire.ts";

/**
 * ID-token sign-in (`POST /sign-in/social` with `idToken`) side by side: tokens signed by the
 * real IdP's key, sent to the reference (genericOAuth, discovery) and to Latchkey
 * (oidcProvider, then @latchkey/generic-oauth) from the same stored rows.
 */
let pair: SocialPair;

for (const latchkeyProvider of LATCHKEY_PROVIDERS) {
  describe(`Latchkey with ${latchkeyProvider}`, () => {
    beforeAll(async () => {
      pair = await createSocialPair({ latchkeyProvider });
    });
    afterAll(() => pair.close());

    describe("ID-token sign-in (POST /sign-in/social with idToken)", () => {
      const claims = { sub: "idt-sub", email: "idt@example.com", email_verified: true, name: "Ida" };

      async function idTokenSignIn(handler: Handler, idToken: Record<string, unknown>) {
        const response = await handler(
          jsonPost("/sign-in/social", { provider: "idp", callbackURL: "/d", idToken }),
        );
        const text = await response.text();
        return {
          status: response.status,
          body: text ? normalizeJson(JSON.parse(text), new Set()) : text,
          cookies: describeCookies(response),
          location: response.headers.get("location"),
        };
      }

      it("a valid token signs in with the same answer and rows", async () => {
        const token = await pair.idp.signIdToken(claims);
        const both = await onBoth(pair, async (side) => {
          const answer = await idTokenSignIn(pair[side], { token });
          const account = pair.db
            .prepare(`SELECT * FROM "account" WHERE "accountId" = ?`)
            .all(["idt-sub"])[0];
          return { answer, account: normalizeJson(account, new Set()) };
        });
        expect(both.reference.answer.status).toBe(200);
        expect(both.reference.answer.body).toMatchObject({ redirect: false, token: "<new-id32>" });
        expect(both.reference.account).toMatchObject({ idToken: token, accessToken: null, scope: null });
        expect(both.latchkey).toEqual(both.reference);
      });

      const refused: Array<[string, () => Promise<Record<string, unknown>>]> = [
        [
          "a token for another audience",
          async () => ({ token: await pair.idp.signIdToken({ ...claims, aud: "other" }) }),
        ],
        ["an expired token", async () => ({ token: await pair.idp.signIdToken({ ...claims, exp: 1 }) })],
        [
          "a nonce that does not match",
          async () => ({ token: await pair.idp.signIdToken({ ...claims, nonce: "n1" }), nonce: "n2" }),
        ],
        ["not a JWT", () => Promise.resolve({ token: "not-a-jwt" })],
      ];
      for (const [name, make] of refused) {
        it(`${name}: same refusal, nothing written`, async () => {
          const idToken = await make();
          const both = await onBoth(pair, async (side) => {
            const users = pair.db.prepare(`SELECT COUNT(*) AS n FROM "user"`).all([])[0];
            const answer = await idTokenSignIn(pair[side], idToken);
            expect(pair.db.prepare(`SELECT COUNT(*) AS n FROM "user"`).all([])[0], side).toEqual(users);
            return answer;
          });
          expect(both.reference.status).toBe(401);
          expect(both.latchkey).toEqual(both.reference);
        });
      }

      it("a verified token without an email: the reference asks UserInfo with no access token (FAILED_TO_GET_USER_INFO); Latchkey asks nothing, and core's oidcProvider answers USER_EMAIL_NOT_FOUND (DIVERGENCES.md row 40)", async () => {
        const token = await pair.idp.signIdToken({ sub: "idt-sub", name: "Ida" });
        const userInfoCalls = () => pair.idp.requests.filter((r) => r === "GET /me").length;
        const both = await onBoth(pair, async (side) => {
          const before = userInfoCalls();
          const answer = await idTokenSignIn(pair[side], { token });
          return { answer, userInfoCalls: userInfoCalls() - before };
        });
        const failed = (code: string, message: string) => ({
          status: 401,
          body: { code, message },
          cookies: [],
          location: null,
        });
        expect(both.reference).toEqual({
          answer: failed("FAILED_TO_GET_USER_INFO", "Failed to get user info"),
          userInfoCalls: 1,
        });
        // Latchkey's genericOAuth gives the reference's answer without the call ("Bearer undefined").
        if (latchkeyProvider === "genericOAuth")
          expect(both.latchkey).toEqual({ answer: both.reference.answer, userInfoCalls: 0 });
        else
          expect(both.latchkey).toEqual({
            answer: failed("USER_EMAIL_NOT_FOUND", "User email not found"),
            userInfoCalls: 0,
          });
      });

      it("a matching nonce is accepted on both", async () => {
        const token = await pair.idp.signIdToken({ ...claims, nonce: "n1" });
        const both = await onBoth(pair, (side) => idTokenSignIn(pair[side], { token, nonce: "n1" }));
        expect(both.reference.status).toBe(200);
        expect(both.latchkey).toEqual(both.reference);
      });
    });
  });
}
