import {
  APIError,
  type Adapter,
  type Awaitable,
  type EndpointContext,
  type IdentifiedAccount,
  type SelectedOAuthUser,
} from "@latchkey/core";
import { fromRow } from "./lookup.js";
import type { FoundProvider } from "./oidc-provider.js";
import { isCurrentReference, type ProviderReference } from "./provider-reference.js";
import type { SSOProviderRow } from "./schema.js";

/** The provider's user as the resolver sees it: the mapped profile without the subject. */
export type SSOProviderUserProfile = {
  email: string;
  emailVerified: boolean;
  name: string;
  image?: string | null | undefined;
} & Record<string, unknown>;

/** What `resolveUser` is asked on every OIDC sign-in (the reference's shape; SAML is not served). */
export interface SSOUserResolutionInput {
  protocol: "oidc";
  providerId: string;
  /** The identity: the verified ID token's `iss` (else the provider's issuer) and the account id. */
  accountKey: { issuer: string; accountId: string };
  providerUser: SSOProviderUserProfile;
  /** UserInfo's claims, or the verified ID token's when the provider has no UserInfo endpoint. */
  providerClaims: Record<string, unknown>;
  /** The verified ID token's claims. */
  verifiedIdTokenClaims: Record<string, unknown>;
  /** The provider configuration the sign-in started with (transient: never store it as a binding). */
  providerReference: ProviderReference;
}

/** The resolver's second argument: the adapter of the sign-in's transaction. */
export interface SSOUserResolutionContext {
  database: Adapter;
}

/** A resolver's decision: core's rules, this user, or a refusal with a callback error code. */
export type SSOUserResolution =
  | { action: "continue" }
  | { action: "link"; userId: string; profile: "preserve" | "update" }
  | { action: "reject"; code: string; message?: string | undefined };

export type ResolveSSOUser = (
  input: SSOUserResolutionInput,
  context: SSOUserResolutionContext,
) => Awaitable<SSOUserResolution>;

/** The claims the provider's `getUserInfo` saw, kept for the resolver. */
export interface ObservedClaims {
  verifiedIdToken: Record<string, unknown> | null;
  userInfo: Record<string, unknown> | null;
}

const nonEmpty = (value: unknown): value is string => typeof value === "string" && value.trim().length > 0;

function isResolution(value: unknown): value is SSOUserResolution {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const v = value as Record<string, unknown>;
  if (v.action === "continue") return true;
  if (v.action === "link") return nonEmpty(v.userId) && (v.profile === "preserve" || v.profile === "update");
  return (
    v.action === "reject" && nonEmpty(v.code) && (v.message === undefined || typeof v.message === "string")
  );
}

const resolutionFailed = () =>
  APIError.from(500, "SSO_USER_RESOLUTION_FAILED", "Unable to resolve the SSO user");

/** Callback error the sign-in answers when sessions are not in the database only. */
export function databaseSessionsRequired(): APIError {
  return APIError.from(
    501,
    "SSO_USER_RESOLUTION_REQUIRES_DATABASE_SESSIONS",
    "SSO user resolution requires database-backed sessions with database fallback",
  );
}

/**
 * The sign-in's first step inside its transaction: locks a stored provider's row and checks it
 * is still the configuration the sign-in started with (409 `SSO_PROVIDER_CHANGED`), then asks
 * `resolveUser` with the transaction's adapter. `link` selects the user, `reject` refuses with
 * the resolver's code (403), a throw or a malformed answer is 500 `SSO_USER_RESOLUTION_FAILED`
 * (its error is logged, not shown). Every refusal rolls the sign-in back.
 */
export async function resolveInTransaction(
  ctx: EndpointContext,
  resolveUser: ResolveSSOUser,
  found: FoundProvider,
  reference: ProviderReference,
  claims: ObservedClaims,
  identified: IdentifiedAccount,
  database: Adapter,
): Promise<SelectedOAuthUser | undefined> {
  if (!claims.verifiedIdToken)
    throw APIError.from(400, "invalid_provider", "id_token_required_for_user_resolution");
  if (found.row) {
    const locked = await database.update<SSOProviderRow>({
      model: "ssoProvider",
      where: [{ field: "id", value: found.row.id }],
      update: { providerId: found.row.providerId },
    });
    const current = locked && fromRow(locked);
    if (!current || !(await isCurrentReference(current, reference)))
      throw APIError.from(
        "CONFLICT",
        "SSO_PROVIDER_CHANGED",
        "SSO provider changed while account linking was in progress",
      );
  }
  const { id: _subject, ...profile } = identified.user;
  const iss = claims.verifiedIdToken.iss;
  const input: SSOUserResolutionInput = {
    protocol: "oidc",
    providerId: found.providerId,
    accountKey: { issuer: nonEmpty(iss) ? iss : found.issuer, accountId: identified.account.accountId },
    providerUser: {
      ...profile,
      email: String(profile.email ?? ""),
      name: typeof profile.name === "string" ? profile.name : "",
      image: typeof profile.image === "string" ? profile.image : undefined,
      emailVerified: profile.emailVerified === true,
    },
    providerClaims: claims.userInfo ?? claims.verifiedIdToken,
    verifiedIdTokenClaims: claims.verifiedIdToken,
    providerReference: reference,
  };
  let resolution: unknown;
  try {
    resolution = await resolveUser(input, { database });
  } catch (error) {
    ctx.context.logger.error("SSO user resolution failed", error instanceof Error ? error.name : undefined);
    throw resolutionFailed();
  }
  if (!isResolution(resolution)) {
    ctx.context.logger.error("SSO user resolver returned an invalid decision");
    throw resolutionFailed();
  }
  if (resolution.action === "reject")
    throw new APIError("FORBIDDEN", {
      code: resolution.code,
      ...(resolution.message === undefined ? {} : { message: resolution.message }),
    });
  return resolution.action === "link"
    ? { userId: resolution.userId, profile: resolution.profile }
    : undefined;
}
