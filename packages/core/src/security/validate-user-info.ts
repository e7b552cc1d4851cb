import { APIError } from "../errors/api-error.js";
import { markApplicationError } from "../api/declared-codes.js";

/** What is about to happen to an incoming identity (the reference's `ValidateUserInfoAction`). */
export type ValidateUserInfoAction = "create-user" | "link-account" | "sign-in";

/** How the identity arrived: `email-password`, `oauth` (with `oauth.providerId`), `magic-link`, … */
export interface UserProvisioningSource {
  method: string;
  oauth?: { providerId: string; profile?: Record<string, unknown> };
  sso?: { providerId: string; profile?: Record<string, unknown> };
}

/** `user.validateUserInfo`: return `{ error, errorDescription? }` to refuse the user. */
export type ValidateUserInfo = (
  data: { user: Record<string, unknown>; source: UserProvisioningSource & { action: ValidateUserInfoAction } },
  ctx: unknown,
) => Promise<{ error: string; errorDescription?: string } | void> | { error: string; errorDescription?: string } | void;

const refuse = (code: string, message: string): APIError => new APIError("FORBIDDEN", { code, message });

/**
 * Runs the application's `validateUserInfo` gate before a user is created, as the reference
 * does on every user-creating path. A missing source or endpoint context fails closed: a
 * policy that cannot see where a user came from must not be skipped.
 */
export async function assertValidUserInfo(
  validate: ValidateUserInfo,
  user: Record<string, unknown>,
  source: UserProvisioningSource | undefined,
  ctx: unknown,
  action: ValidateUserInfoAction = "create-user",
): Promise<void> {
  if (!source?.method) throw refuse("validation_source_missing", "User validation source is required");
  if (source.method === "oauth" && !source.oauth?.providerId) {
    throw refuse("validation_source_missing", "OAuth user validation source requires oauth.providerId");
  }
  if ((source.method === "sso-oidc" || source.method === "sso-saml") && !source.sso?.providerId) {
    throw refuse("validation_source_missing", "SSO user validation source requires sso.providerId");
  }
  if (!ctx) throw refuse("validation_context_missing", "User validation requires an endpoint context");
  let result: Awaited<ReturnType<ValidateUserInfo>>;
  try {
    result = await validate({ user, source: { ...source, action } }, ctx);
  } catch {
    throw refuse("validation_failed", "User validation failed");
  }
  // The application names this code: it is not one core or a plugin declares.
  if (result?.error) throw markApplicationError(refuse(result.error, result.errorDescription || result.error));
}
