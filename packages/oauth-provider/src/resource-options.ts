import type { Session, User } from "@latchkey/core";

/** JWS algorithms a resource may pin its access tokens to (the jwt plugin's asymmetric set). */
export const RESOURCE_SIGNING_ALGORITHMS = ["EdDSA", "ES256", "ES512", "PS256", "RS256"] as const;

/** An algorithm a resource may pin. */
export type ResourceSigningAlgorithm = (typeof RESOURCE_SIGNING_ALGORITHMS)[number];

/** A protected resource (RFC 8707) as configured or written by the admin routes. */
export interface OAuthResourceInput {
  /** The `resource` parameter value: an absolute URI without fragment (or what `identifierValidator` accepts). */
  identifier: string;
  /** Display name. @default identifier */
  name?: string | undefined;
  /** Seconds its access tokens live at most (the smallest of a request's resources wins). */
  accessTokenTtl?: number | null | undefined;
  /** Seconds its refresh tokens live at most. */
  refreshTokenTtl?: number | null | undefined;
  /** Its JWT access tokens are signed with a key of this algorithm. */
  signingAlgorithm?: ResourceSigningAlgorithm | null | undefined;
  /** Its JWT access tokens are signed with this key (`kid` of the jwt plugin's set). */
  signingKeyId?: string | null | undefined;
  /** The scopes a token for it may carry (requested scopes are narrowed to these); null: any. */
  allowedScopes?: string[] | null | undefined;
  /** Claims added to its access tokens (RFC 9068 claims cannot be replaced). */
  customClaims?: Record<string, unknown> | null | undefined;
  /** Tokens for it must be DPoP-bound (RFC 9449). */
  dpopBoundAccessTokensRequired?: boolean | undefined;
  /** No new tokens name it; tokens already issued stay valid until they expire. */
  disabled?: boolean | undefined;
  metadata?: Record<string, unknown> | null | undefined;
}

/** What `resourcePrivileges` is asked about. */
export type ResourceAction = "create" | "read" | "update" | "delete" | "list" | "link" | "unlink";

/** The resource options of `oauthProvider()`, with the reference's names and defaults. */
export interface ResourceOptions {
  /** Resources seeded into `oauthResource` on first use (identifier strings or full entries). */
  resources?: Array<string | OAuthResourceInput>;
  /**
   * How seeding treats a row that exists: `insertOnly` leaves it, `merge` writes the configured
   * members, `overwrite` replaces every policy column. @default "insertOnly"
   */
  resourceSeedMode?: "insertOnly" | "merge" | "overwrite";
  /** Identifiers whose rows are cached in process (admin writes through this instance refresh them). */
  cachedResources?: Set<string>;
  /** Authorize and token requests need a `oauthClientResource` link for every resource. @default true */
  enforcePerClientResources?: boolean;
  /** Replaces the RFC 8707 §2 identifier check of the admin routes and seeding. */
  identifierValidator?: (identifier: string) => boolean | Promise<boolean>;
  /** Whether the signed-in user may manage resources; false answers 401. @default every signed-in user */
  resourcePrivileges?: (context: {
    headers: Headers;
    action: ResourceAction;
    user?: User & Record<string, unknown>;
    session?: Session & Record<string, unknown>;
    resourceId?: string | undefined;
  }) => boolean | Promise<boolean>;
  /** Resources linked to every client registered at `/oauth2/register`; each must be in `resources`. */
  clientRegistrationDefaultResources?: readonly string[];
  /** Further resources a registration's `resources` member may ask for; each must be in `resources`. */
  clientRegistrationAllowedResources?: readonly string[];
}

/** Start-up checks of the resource options: a `TypeError`, never a request's surprise. */
export function checkResourceOptions(options: ResourceOptions): void {
  const mode = options.resourceSeedMode;
  if (mode !== undefined && mode !== "insertOnly" && mode !== "merge" && mode !== "overwrite") {
    throw new TypeError("oauthProvider: resourceSeedMode must be insertOnly, merge or overwrite");
  }
  const configured = new Set((options.resources ?? []).map((entry) => (typeof entry === "string" ? entry : entry?.identifier)));
  for (const name of ["clientRegistrationDefaultResources", "clientRegistrationAllowedResources"] as const) {
    for (const identifier of options[name] ?? []) {
      if (!configured.has(identifier)) throw new TypeError(`oauthProvider: ${name} resource ${identifier} not found in resources`);
    }
  }
}
