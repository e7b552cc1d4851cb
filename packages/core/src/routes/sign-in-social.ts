import * as v from "valibot";
import { endpoint } from "../api/endpoint.js";
import { fail } from "../errors/index.js";
import { findSocialProvider } from "../oauth2/providers.js";
import { idTokenFields, socialRedirectFields } from "./social-body.js";

const body = v.object({
  ...socialRedirectFields,
  newUserCallbackURL: v.optional(v.string()),
  idToken: v.optional(
    v.object({
      ...idTokenFields,
      expiresAt: v.optional(v.number()),
      user: v.optional(
        v.object({
          name: v.optional(v.object({ firstName: v.optional(v.string()), lastName: v.optional(v.string()) })),
          email: v.optional(v.string()),
        }),
      ),
    }),
  ),
});

/**
 * `POST /sign-in/social`: with `idToken`, verifies it and signs the user in (a session, no
 * redirect); otherwise answers the provider's authorization URL to send the browser to.
 * Both run in the provider's flow; an unknown provider is 404 `PROVIDER_NOT_FOUND`.
 */
export const signInSocial = endpoint("/sign-in/social", { method: "POST", body }, async (ctx) => {
  const auth = ctx.context;
  const provider = await findSocialProvider(auth, ctx.body.provider);
  if (!provider) {
    auth.logger.error("Provider not found. Add it to `socialProviders`.");
    throw fail("NOT_FOUND", "PROVIDER_NOT_FOUND");
  }
  const { idToken } = ctx.body;
  if (!idToken) return provider.flow.startRedirect(ctx, provider, ctx.body);
  return provider.flow.signInWithIdToken(ctx, provider, { ...ctx.body, idToken });
});
