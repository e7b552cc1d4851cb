import * as v from "valibot";
import { endpoint } from "../api/endpoint.js";
import { APIError } from "../errors/api-error.js";
import { fail } from "../errors/index.js";
import { resolveAccountKey } from "../oauth2/account-key.js";
import { supportsIdTokenSignIn, verifyProviderIdToken } from "../oauth2/id-token.js";
import { findSocialProvider, trustedProviders } from "../oauth2/providers.js";
import { storedTokens } from "../oauth2/token-storage.js";
import { applyUpdateUserInfoOnLink } from "../oauth2/user-fields.js";
import { sessionMiddleware } from "../session/session-middleware.js";
import { startRedirectFlow } from "./sign-in-social.js";
import { idTokenFields, socialRedirectFields } from "./social-body.js";

const body = v.object({ ...socialRedirectFields, idToken: v.optional(v.object(idTokenFields)) });

const refuse = (status: "UNAUTHORIZED" | "EXPECTATION_FAILED", code: string, message: string) =>
  new APIError(status, { code, message });

/**
 * `POST /link-social`: links a provider account to the signed-in user. Without `idToken` it
 * starts a redirect flow whose state names the user; with one it links at once: 409
 * `SOCIAL_ACCOUNT_ALREADY_LINKED` when the provider account belongs to another user, 401
 * `LINKING_NOT_ALLOWED` / `LINKING_DIFFERENT_EMAILS_NOT_ALLOWED`, 417 `LINKING_FAILED`.
 */
export const linkSocial = endpoint(
  "/link-social",
  { method: "POST", body, use: [sessionMiddleware], requireHeaders: true },
  async (ctx) => {
    const auth = ctx.context;
    const { user } = auth.session!;
    const provider = await findSocialProvider(auth, ctx.body.provider);
    if (!provider) throw fail("NOT_FOUND", "PROVIDER_NOT_FOUND");
    const idToken = ctx.body.idToken;
    if (!idToken)
      return startRedirectFlow(ctx, provider, { ...ctx.body, link: { userId: user.id, email: user.email } });

    if (!supportsIdTokenSignIn(provider)) throw fail("NOT_FOUND", "ID_TOKEN_NOT_SUPPORTED");
    if (!(await verifyProviderIdToken(provider, idToken.token, idToken.nonce, ctx)))
      throw fail("UNAUTHORIZED", "INVALID_TOKEN");
    const tokens = {
      idToken: idToken.token,
      accessToken: idToken.accessToken,
      refreshToken: idToken.refreshToken,
    };
    const info = await provider.getUserInfo(tokens).catch(() => null);
    if (!info?.user) throw fail("UNAUTHORIZED", "FAILED_TO_GET_USER_INFO");
    if (!info.user.email) throw fail("UNAUTHORIZED", "USER_EMAIL_NOT_FOUND");
    const key = await resolveAccountKey(provider, tokens, info.data).catch(() => {
      throw fail("UNAUTHORIZED", "FAILED_TO_GET_USER_INFO");
    });
    const stored = await storedTokens(auth, tokens);
    const existing = await auth.internalAdapter.findAccountByKey(key);
    if (existing?.userId === user.id) {
      await auth.internalAdapter.updateAccount(existing.id, stored, ctx);
      await applyUpdateUserInfoOnLink(ctx, user.id, info.user);
      return { url: "", status: true, redirect: false };
    }
    // Spec: the provider account is someone else's; never move it to this user.
    if (existing) throw fail("CONFLICT", "SOCIAL_ACCOUNT_ALREADY_LINKED");
    const linking = auth.options.account?.accountLinking;
    const trusted = (await trustedProviders(auth, ctx.request)).includes(provider.id);
    if ((!trusted && !info.user.emailVerified) || linking?.enabled === false) {
      throw refuse("UNAUTHORIZED", "LINKING_NOT_ALLOWED", "Account not linked - linking not allowed");
    }
    if (
      info.user.email.toLowerCase() !== user.email.toLowerCase() &&
      linking?.allowDifferentEmails !== true
    ) {
      throw refuse(
        "UNAUTHORIZED",
        "LINKING_DIFFERENT_EMAILS_NOT_ALLOWED",
        "Account not linked - different emails not allowed",
      );
    }
    const created = await auth.internalAdapter
      .linkAccount({ ...key, userId: user.id, ...stored }, ctx)
      .catch(() => null);
    if (!created)
      throw refuse("EXPECTATION_FAILED", "LINKING_FAILED", "Account not linked - unable to create account");
    await applyUpdateUserInfoOnLink(ctx, user.id, info.user);
    return { url: "", status: true, redirect: false };
  },
);
