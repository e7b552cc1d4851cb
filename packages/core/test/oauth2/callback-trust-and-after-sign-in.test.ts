import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestIdP } from "@latchkey/test-support";
import {
  callbackErrorRedirect,
  defaultErrorURL,
  endpoint,
  parseState,
  type OAuthSignedIn,
  type IdentifiedAccount,
  type User,
} from "../../src/index.ts";
import {
  idpProvider,
  sessionOf,
  socialInstance,
  startSignIn,
  startTestIdP,
  AUTH,
  CALLBACK,
} from "../support/social.ts";

let idp: TestIdP;
beforeAll(async () => {
  idp = await startTestIdP();
});
afterAll(() => idp.close());

/**
 * A plugin callback like SSO's: `GET /trusting-callback/idp` completes the flow with the
 * `isTrustedProvider` and `afterSignIn` inputs under test (the IdP still returns to
 * `/callback/idp`; the test rewrites that hop).
 */
function trustingPlugin(
  trusted: boolean,
  seen: { signedIn: OAuthSignedIn; identified: IdentifiedAccount }[],
) {
  const provider = idpProvider(idp);
  return {
    id: "trusting",
    endpoints: {
      trustingCallback: endpoint("/trusting-callback/:id", { method: "GET" }, async (ctx) => {
        const query = ctx.query as unknown as { code: string; state: string; iss?: string };
        const state = await parseState(ctx, query.state);
        const fail = (code: string, description?: string) =>
          callbackErrorRedirect(ctx, state.errorURL ?? defaultErrorURL(ctx), code, description);
        return provider.flow!.completeCallback(ctx, provider, {
          state,
          code: query.code,
          iss: query.iss,
          redirectURI: CALLBACK,
          fail,
          isTrustedProvider: () => trusted,
          afterSignIn: async (signedIn, identified) => {
            seen.push({ signedIn, identified });
          },
        });
      }),
    },
  };
}

/** A verified local user with the email the IdP's `unverified-sub` claims without verifying it. */
async function localVictim(t: ReturnType<typeof socialInstance>) {
  await t.browser.post(`${AUTH}/sign-up/email`, {
    email: "victim@example.com",
    password: "password-1234",
    name: "V",
  });
  const user = (t.store.user as User[]).find((u) => u.email === "victim@example.com")!;
  user.emailVerified = true;
  return user;
}

describe("completeCallback inputs: isTrustedProvider and afterSignIn", () => {
  it.each([true, false])(
    "isTrustedProvider %s decides implicit linking of an unverified provider email",
    async (trusted) => {
      const seen: { signedIn: OAuthSignedIn; identified: IdentifiedAccount }[] = [];
      const t = socialInstance(idp, { plugins: [trustingPlugin(trusted, seen)] });
      const victim = await localVictim(t);
      idp.login("unverified-sub");
      const url = await startSignIn(t.browser);
      const { location } = await t.browser.follow(url, {
        rewrite: (hop) =>
          hop.href.startsWith(CALLBACK) ? hop.href.replace("/callback/idp", "/trusting-callback/idp") : hop,
      });
      if (trusted) {
        expect(new URL(location).pathname).toBe("/dashboard");
        expect((await sessionOf(t.browser))?.user.id).toBe(victim.id);
        expect(seen).toHaveLength(1);
        expect(seen[0]!.signedIn).toMatchObject({
          isRegister: false,
          user: { id: victim.id },
          session: { userId: victim.id },
        });
        expect(seen[0]!.identified.account).toMatchObject({ providerId: "idp", accountId: "unverified-sub" });
      } else {
        expect(new URL(location).searchParams.get("error")).toBe("unable_to_link_account");
        expect(seen).toEqual([]);
      }
    },
  );
});
