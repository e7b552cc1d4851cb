import * as v from "valibot";
import { endpoint } from "../api/endpoint.js";
import { fail } from "../errors/index.js";
import { findSocialProvider } from "../oauth2/providers.js";
import { sessionMiddleware } from "../session/session-middleware.js";
import { idTokenFields, socialRedirectFields } from "./social-body.js";

const body = v.object({ ...socialRedirectFields, idToken: v.optional(v.object(idTokenFields)) });

/**
 * `POST /link-social`: links a provider account to the signed-in user. Without `idToken` it
 * starts a redirect flow whose state names the user; with one the provider's flow links at
 * once. An unknown provider is 404 `PROVIDER_NOT_FOUND`.
 */
export const linkSocial = endpoint(
  "/link-social",
  { method: "POST", body, use: [sessionMiddleware], requireHeaders: true },
  async (ctx) => {
    const auth = ctx.context;
    const { user } = auth.session;
    const provider = await findSocialProvider(auth, ctx.body.provider);
    if (!provider) throw fail("NOT_FOUND", "PROVIDER_NOT_FOUND");
    const { idToken } = ctx.body;
    if (!idToken) {
      const link = { userId: user.id, email: user.email };
      return provider.flow.startRedirect(ctx, provider, { ...ctx.body, link });
    }
    return provider.flow.linkWithIdToken(ctx, provider, idToken, user);
  },
);
