import { APIError, endpoint, getClientIP, setSessionCookie, toOutput, type EndpointContext, type User } from "@latchkey/core";
import * as v from "valibot";
import type { ResolvedMagicLinkOptions } from "../options.js";
import { verifyTargets } from "../redirect-urls.js";
import { storedToken } from "../token.js";

const query = v.object({
  token: v.string(),
  callbackURL: v.optional(v.string()),
  newUserCallbackURL: v.optional(v.string()),
  errorCallbackURL: v.optional(v.string()),
});

/** The stored value of a link: `{ email, name? }` as JSON; null when unreadable. */
function readValue(value: string): { email: string; name?: string } | null {
  try {
    const parsed = JSON.parse(value) as { email?: unknown; name?: unknown };
    if (typeof parsed.email !== "string") return null;
    return { email: parsed.email, ...(typeof parsed.name === "string" ? { name: parsed.name } : {}) };
  } catch {
    return null;
  }
}

/** Finds the link's user, or creates it (email verified: following the link proved the mailbox). */
async function userFor(
  ctx: EndpointContext,
  options: ResolvedMagicLinkOptions,
  link: { email: string; name?: string },
  fail: (code: string, description?: string) => never,
): Promise<{ user: User; isNewUser: boolean }> {
  const auth = ctx.context;
  const found = await auth.internalAdapter.findUserByEmail(link.email);
  if (found) return { user: found.user, isNewUser: false };
  if (options.disableSignUp) fail("new_user_signup_disabled");
  let created: User | null;
  try {
    created = await auth.internalAdapter.createUser(
      { email: link.email, emailVerified: true, name: link.name || "" },
      ctx,
      { method: "magic-link" },
    );
  } catch (error) {
    // validateUserInfo and before hooks refuse with a coded APIError: pass it on in the URL.
    if (error instanceof APIError && error.body?.code) fail(error.body.code, error.body.message);
    throw error;
  }
  if (!created) fail("failed_to_create_user");
  return { user: created, isNewUser: true };
}

/**
 * `GET /magic-link/verify?token&callbackURL&newUserCallbackURL&errorCallbackURL`: redeems the
 * link once (of parallel requests exactly one gets the token), signs the user in (creating
 * them unless `disableSignUp`), and redirects to `callbackURL` (`newUserCallbackURL` for a
 * new user) or, without a `callbackURL`, answers `{ token, user, session }`. A bad or used
 * token redirects to `errorCallbackURL` (else `callbackURL`) with `?error=INVALID_TOKEN`.
 */
export const magicLinkVerify = (options: ResolvedMagicLinkOptions) =>
  endpoint("/magic-link/verify", { method: "GET", query, requireHeaders: true }, async (ctx) => {
    const auth = ctx.context;
    const targets = await verifyTargets(ctx, ctx.query);
    const fail = (code: string, description?: string): never => {
      const target = new URL(targets.errorCallbackURL);
      target.searchParams.set("error", code);
      if (description) target.searchParams.set("error_description", description);
      throw ctx.redirect(target.toString());
    };
    // Single use: consumed before anything else, so a replay or a parallel twin finds nothing.
    const row = await auth.internalAdapter.consumeVerificationValue(await storedToken(options, ctx.query.token));
    const link = row && readValue(row.value);
    if (!link) return fail("INVALID_TOKEN");
    const resolved = await userFor(ctx, options, link, fail);
    let user = resolved.user;
    if (!user.emailVerified) {
      // spec: States, "user email unverified": the link proves the mailbox, so access that
      // predates the proof (password, OAuth links, sessions) is revoked before verifying.
      const promoted = await auth.internalAdapter.revokeUnprovenAccountAccess(user.id, ctx);
      if (!promoted) return fail("user_not_found");
      user = promoted;
    }
    const session = await auth.internalAdapter.createSession(
      user.id,
      false,
      { ipAddress: getClientIP(ctx.headers, auth.options), userAgent: ctx.headers.get("user-agent") },
      ctx,
    );
    if (!session) return fail("failed_to_create_session");
    await setSessionCookie(ctx, { session, user });
    if (!ctx.query.callbackURL) {
      return {
        token: session.token,
        user: toOutput(auth.schema, "user", user),
        session: toOutput(auth.schema, "session", session),
      };
    }
    throw ctx.redirect(resolved.isNewUser ? targets.newUserCallbackURL : targets.callbackURL);
  });
