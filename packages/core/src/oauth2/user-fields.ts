import type { EndpointContext } from "../api/context.js";
import type { User } from "../db/models.js";
import { parseInput } from "../db/field-input.js";
import type { OAuth2UserInfo } from "./types.js";

/** The provider's user attributes (account id included, as the account key resolved it). */
export interface OAuthUserInput extends OAuth2UserInfo {
  /** The provider account id (never stored on the user). */
  id: string;
  email: string;
  name: string;
}

/** The provider account as it will be stored (tokens still plain here). */
export interface OAuthAccountInput {
  providerId: string;
  accountId: string;
  accessToken?: string | undefined;
  refreshToken?: string | undefined;
  idToken?: string | undefined;
  accessTokenExpiresAt?: Date | undefined;
  refreshTokenExpiresAt?: Date | undefined;
  /** Comma-separated granted scopes. */
  scope?: string | undefined;
}

/**
 * Additional user fields filled from the provider profile (mapped fields; spec, Social
 * sign-in 8). Fields clients may not set (`input: false`) are dropped from the profile
 * first, as in the reference, so they keep their defaults. On create a required field with
 * no value and no default is 400 `MISSING_FIELD`.
 */
export function additionalFieldsFromProfile(
  ctx: EndpointContext,
  userInfo: OAuth2UserInfo,
  action: "create" | "update",
): Record<string, unknown> {
  const fields = ctx.context.schema.user?.fields ?? {};
  const profile: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(userInfo)) {
    if (["id", "email", "emailVerified", "name", "image"].includes(key)) continue;
    if (fields[key]?.input === false) continue;
    profile[key] = value;
  }
  return parseInput(ctx.context, "user", profile, action);
}

/**
 * `account.accountLinking.updateUserInfoOnLink`: copies the linked provider's name, image
 * and mapped fields onto the user. Email and its verification are never changed, so a link
 * cannot rebind the user's identity; a failure is logged and does not undo the link.
 */
export async function applyUpdateUserInfoOnLink(
  ctx: EndpointContext,
  userId: string,
  userInfo: OAuth2UserInfo,
): Promise<User | null> {
  if (ctx.context.options.account?.accountLinking?.updateUserInfoOnLink !== true) return null;
  try {
    const data: Record<string, unknown> = { ...additionalFieldsFromProfile(ctx, userInfo, "update") };
    if (userInfo.name !== undefined) data.name = userInfo.name;
    if (userInfo.image !== undefined) data.image = userInfo.image;
    return await ctx.context.internalAdapter.updateUser(userId, data, ctx);
  } catch (error) {
    ctx.context.logger.warn("Could not update user info on account link", error);
    return null;
  }
}
