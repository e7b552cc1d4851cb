import {
  APIError,
  endpoint,
  fail,
  OAUTH_CALLBACK_ERROR_CODES,
  setSessionCookie,
  signInOAuthUser,
  toOutput,
} from "@latchkey/core";
import * as v from "valibot";
import { ONE_TAP_ERROR_MESSAGES as M } from "../error-codes.js";
import { googleSettings } from "../google-config.js";
import { hostedDomainAllowed, type GoogleTokenVerifier } from "../google-id-token.js";
import type { ResolvedOneTapOptions } from "../options.js";

const body = v.object({
  /** The credential Google's One Tap prompt hands the page. */
  idToken: v.string(),
  /** Sent so core's origin check vets the page the client goes to afterwards. */
  callbackURL: v.optional(v.string()),
});

const badRequest = (message: string): APIError => new APIError("BAD_REQUEST", { message });

const hasAudience = (id: string | string[] | undefined): id is string | string[] =>
  Array.isArray(id) ? id.length > 0 : !!id;

/**
 * `POST /one-tap/callback`: verifies a Google ID token and signs its owner in through core's
 * OAuth sign-in (existing account, implicit link by email, or a new user), answering
 * `{ token, user }` with the session cookie.
 */
export function oneTapCallback(options: ResolvedOneTapOptions, verifier: GoogleTokenVerifier) {
  return endpoint("/one-tap/callback", { method: "POST", body }, async (ctx) => {
    const auth = ctx.context;
    const google = await googleSettings(auth.options);
    const audience = options.clientId || google.clientId;
    // Reference: a missing client id is the caller's 400, not a start-up error (it may come lazily).
    if (!hasAudience(audience)) throw badRequest(M.CLIENT_ID_REQUIRED);

    const claims = await verifier.verify(ctx.body.idToken, audience);
    if (!claims) throw badRequest(M.INVALID_ID_TOKEN);
    if (!hostedDomainAllowed(google.hd, claims.hd)) {
      // Log the rule, not the token or its claims.
      auth.logger.error(
        "Google One Tap sign-in refused: the token's hosted domain does not match socialProviders.google.hd.",
      );
      throw badRequest(M.INVALID_ID_TOKEN);
    }
    const { email, sub } = claims;
    // Spec (Plugins, One Tap): a token without an email is a 400.
    if (typeof email !== "string" || email === "") throw badRequest(M.EMAIL_NOT_AVAILABLE);
    if (typeof sub !== "string" || sub === "") throw badRequest(M.INVALID_ID_TOKEN);

    const result = await signInOAuthUser(ctx, {
      userInfo: {
        id: sub,
        email: email.toLowerCase(),
        // Google sends a boolean; a string "true" is accepted as the reference does.
        emailVerified: claims.email_verified === true || claims.email_verified === "true",
        name: typeof claims.name === "string" ? claims.name : "",
        image: typeof claims.picture === "string" ? claims.picture : undefined,
      },
      account: {
        providerId: "google",
        accountId: sub,
        idToken: ctx.body.idToken,
        scope: "openid,profile,email",
      },
      callbackURL: ctx.body.callbackURL,
      disableSignUp: options.disableSignup || google.disableSignUp,
      requireEmailVerification: google.requireEmailVerification,
      source: { method: "oauth", oauth: { providerId: "google", profile: claims } },
    });
    if (result.error !== null) {
      if (result.error === OAUTH_CALLBACK_ERROR_CODES.EMAIL_NOT_VERIFIED)
        throw fail("FORBIDDEN", "EMAIL_NOT_VERIFIED");
      // Reference: 401 with the sign-in error as the message and no code ("unable to link account").
      throw new APIError("UNAUTHORIZED", { message: result.error.replaceAll("_", " ") });
    }
    await setSessionCookie(ctx, result.data);
    return { token: result.data.session.token, user: toOutput(auth.schema, "user", result.data.user) };
  });
}
