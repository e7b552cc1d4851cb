import type { EndpointContext, SessionWithUser } from "@latchkey/core";
import type { ResolvedOAuthOptions } from "./options.js";

/** Where the authorization goes before consent: a page to show, or the `prompt=none` error instead. */
export type Step = { page: string; step: "select_account" | "create" | "post_login" } | { error: string; description: string };

/** How `runAuthorize` was entered. */
export interface AuthorizeSettings {
  /** From `/oauth2/authorize` itself (account selection is asked only there). */
  isAuthorize?: boolean;
  /** The post-login step was completed for this session (`/oauth2/continue` or the consent after it). */
  postLogin?: boolean;
}

/**
 * The reference's interaction steps after sign-in, in its order: account selection
 * (`prompt=select_account` or `selectAccount.shouldRedirect`), sign-up steps
 * (`signup.shouldRedirect`), then the post-login step (`postLogin.shouldRedirect`) unless done.
 * Each yields a page, or with `prompt=none` the OIDC Core §3.1.2.6 error.
 */
export async function interactionStep(
  ctx: EndpointContext,
  options: ResolvedOAuthOptions,
  session: SessionWithUser,
  scopes: string[],
  prompts: Set<string>,
  settings: AuthorizeSettings,
): Promise<Step | undefined> {
  const info = { headers: ctx.headers, user: session.user, session: session.session, scopes } as Parameters<NonNullable<typeof options.selectAccount>["shouldRedirect"]>[0];
  const none = prompts.has("none");
  const selectPage = options.selectAccount?.page ?? options.loginPage;
  if (settings.isAuthorize && prompts.has("select_account")) return { page: selectPage, step: "select_account" };
  if (settings.isAuthorize && options.selectAccount && (await options.selectAccount.shouldRedirect(info))) {
    return none ? { error: "account_selection_required", description: "End-User account selection is required" } : { page: selectPage, step: "select_account" };
  }
  if (options.signup?.shouldRedirect) {
    const signup = await options.signup.shouldRedirect(info);
    if (signup) {
      if (none) return { error: "interaction_required", description: "End-User interaction is required" };
      return { page: typeof signup === "string" ? signup : (options.signup.page ?? options.loginPage), step: "create" };
    }
  }
  if (!settings.postLogin && options.postLogin && (await options.postLogin.shouldRedirect(info))) {
    return none ? { error: "interaction_required", description: "End-User interaction is required" } : { page: options.postLogin.page, step: "post_login" };
  }
  return undefined;
}

/** `postLogin.consentReferenceId` for the session, when configured. */
export async function consentReferenceId(options: ResolvedOAuthOptions, session: SessionWithUser, scopes: string[]): Promise<string | undefined> {
  return options.postLogin?.consentReferenceId?.({ user: session.user, session: session.session, scopes } as never);
}
