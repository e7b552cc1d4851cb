import type { DBField, SchemaDefinition } from "@latchkey/core";

/** `clientId` of a token or consent row: the client's `clientId` (not its row id), rows go with it. */
const clientColumn = {
  type: "string",
  required: true,
  references: { model: "oauthClient", field: "clientId" },
  index: true,
} as const satisfies DBField;

/** `sessionId` of a token row: kept (as null) when the session ends, for offline access. */
const sessionColumn = {
  type: "string",
  required: false,
  references: { model: "session", field: "id", onDelete: "set null" },
  index: true,
} as const satisfies DBField;

/** Columns every stored token shares after its owner (the reference's order). */
const grantColumns = {
  referenceId: { type: "string", required: false },
  authorizationCodeId: { type: "string", required: false, index: true },
  resources: { type: "string[]", required: false },
  requestedUserInfoClaims: { type: "string[]", required: false },
} as const satisfies Record<string, DBField>;

/**
 * The provider's tables, column for column the reference's (1.1 columns and tables included),
 * so rows one side writes are read by the other: lists are `string[]` (JSON text in SQL), secrets and
 * tokens are stored hashed (see `token-hash.ts`), times are dates. Authorization codes are no
 * table: they live in core's `verification` table.
 */
export const oauthProviderSchema = {
  oauthClient: {
    modelName: "oauthClient",
    fields: {
      clientId: { type: "string", unique: true, required: true },
      clientSecret: { type: "string", required: false },
      clientDiscoveryId: { type: "string", required: false },
      disabled: { type: "boolean", defaultValue: false, required: false },
      skipConsent: { type: "boolean", required: false },
      enableEndSession: { type: "boolean", required: false },
      subjectType: { type: "string", required: false },
      scopes: { type: "string[]", required: false },
      clientCredentialsScopes: { type: "string[]", required: false, defaultValue: [] },
      userId: { type: "string", required: false, references: { model: "user", field: "id" }, index: true },
      createdAt: { type: "date", required: false },
      updatedAt: { type: "date", required: false },
      name: { type: "string", required: false },
      uri: { type: "string", required: false },
      icon: { type: "string", required: false },
      contacts: { type: "string[]", required: false },
      tos: { type: "string", required: false },
      policy: { type: "string", required: false },
      softwareId: { type: "string", required: false },
      softwareVersion: { type: "string", required: false },
      softwareStatement: { type: "string", required: false },
      redirectUris: { type: "string[]", required: true },
      postLogoutRedirectUris: { type: "string[]", required: false },
      backchannelLogoutUri: { type: "string", required: false },
      backchannelLogoutSessionRequired: { type: "boolean", required: false },
      tokenEndpointAuthMethod: { type: "string", required: false },
      applicationType: { type: "string", required: false },
      jwks: { type: "string", required: false },
      jwksUri: { type: "string", required: false },
      grantTypes: { type: "string[]", required: false },
      responseTypes: { type: "string[]", required: false },
      requirePKCE: { type: "boolean", required: false },
      dpopBoundAccessTokens: { type: "boolean", required: false, defaultValue: false },
      referenceId: { type: "string", required: false },
      metadata: { type: "json", required: false },
    },
  },
  // RFC 8707 protected resources and their per-client links (stored now; policy is for a later release).
  oauthResource: {
    modelName: "oauthResource",
    fields: {
      identifier: { type: "string", required: true, unique: true },
      name: { type: "string", required: true },
      accessTokenTtl: { type: "number", required: false },
      refreshTokenTtl: { type: "number", required: false },
      signingAlgorithm: { type: "string", required: false },
      signingKeyId: { type: "string", required: false },
      allowedScopes: { type: "string[]", required: false },
      customClaims: { type: "json", required: false },
      dpopBoundAccessTokensRequired: { type: "boolean", required: false, defaultValue: false },
      disabled: { type: "boolean", required: false, defaultValue: false },
      createdAt: { type: "date", required: false },
      updatedAt: { type: "date", required: false },
      policyVersion: { type: "number", required: false, defaultValue: 1 },
      metadata: { type: "json", required: false },
    },
  },
  oauthClientResource: {
    modelName: "oauthClientResource",
    fields: {
      clientId: {
        type: "string",
        required: true,
        references: { model: "oauthClient", field: "clientId", onDelete: "cascade" },
        index: true,
      },
      resourceId: {
        type: "string",
        required: true,
        references: { model: "oauthResource", field: "identifier", onDelete: "cascade" },
        index: true,
      },
      metadata: { type: "json", required: false },
      createdAt: { type: "date", required: false },
    },
    indexes: [{ fields: ["clientId", "resourceId"], unique: true }],
  },
  oauthRefreshToken: {
    fields: {
      token: { type: "string", required: true, unique: true },
      clientId: clientColumn,
      sessionId: sessionColumn,
      userId: { type: "string", required: true, references: { model: "user", field: "id" }, index: true },
      ...grantColumns,
      expiresAt: { type: "date" },
      createdAt: { type: "date" },
      revoked: { type: "date", required: false },
      rotatedAt: { type: "date", required: false },
      rotationReplayResponse: { type: "string", required: false },
      rotationReplayExpiresAt: { type: "date", required: false },
      authTime: { type: "date", required: false },
      confirmation: { type: "json", required: false },
      scopes: { type: "string[]", required: true },
    },
  },
  oauthAccessToken: {
    modelName: "oauthAccessToken",
    fields: {
      token: { type: "string", unique: true },
      clientId: clientColumn,
      sessionId: sessionColumn,
      userId: { type: "string", required: false, references: { model: "user", field: "id" }, index: true },
      ...grantColumns,
      refreshId: { type: "string", required: false, references: { model: "oauthRefreshToken", field: "id" }, index: true },
      expiresAt: { type: "date" },
      createdAt: { type: "date" },
      revoked: { type: "date", required: false },
      confirmation: { type: "json", required: false },
      scopes: { type: "string[]", required: true },
    },
  },
  oauthConsent: {
    modelName: "oauthConsent",
    fields: {
      clientId: clientColumn,
      userId: { type: "string", required: false, references: { model: "user", field: "id" }, index: true },
      referenceId: { type: "string", required: false },
      resources: { type: "string[]", required: false },
      requestedUserInfoClaims: { type: "string[]", required: false },
      scopes: { type: "string[]", required: true },
      createdAt: { type: "date" },
      updatedAt: { type: "date" },
    },
  },
  // Single-use `private_key_jwt` assertion ids (the row id is derived from client id and jti).
  oauthClientAssertion: {
    modelName: "oauthClientAssertion",
    fields: { expiresAt: { type: "date", required: true } },
  },
} satisfies SchemaDefinition;

/** One `oauthClient` row as read back (lists and JSON decoded by the adapter). */
export interface OAuthClientRow {
  id: string;
  clientId: string;
  clientSecret?: string | null;
  clientDiscoveryId?: string | null;
  disabled?: boolean | null;
  skipConsent?: boolean | null;
  enableEndSession?: boolean | null;
  subjectType?: string | null;
  scopes?: string[] | null;
  clientCredentialsScopes?: string[] | null;
  userId?: string | null;
  createdAt?: Date | null;
  updatedAt?: Date | null;
  name?: string | null;
  uri?: string | null;
  icon?: string | null;
  contacts?: string[] | null;
  tos?: string | null;
  policy?: string | null;
  softwareId?: string | null;
  softwareVersion?: string | null;
  softwareStatement?: string | null;
  redirectUris: string[];
  postLogoutRedirectUris?: string[] | null;
  backchannelLogoutUri?: string | null;
  backchannelLogoutSessionRequired?: boolean | null;
  tokenEndpointAuthMethod?: string | null;
  applicationType?: string | null;
  jwks?: string | null;
  jwksUri?: string | null;
  grantTypes?: string[] | null;
  responseTypes?: string[] | null;
  requirePKCE?: boolean | null;
  dpopBoundAccessTokens?: boolean | null;
  referenceId?: string | null;
  metadata?: unknown;
}

/** Columns shared by stored refresh and access tokens. */
interface TokenRowBase {
  id: string;
  token: string;
  clientId: string;
  sessionId?: string | null;
  referenceId?: string | null;
  authorizationCodeId?: string | null;
  resources?: string[] | null;
  requestedUserInfoClaims?: string[] | null;
  expiresAt: Date;
  createdAt: Date;
  revoked?: Date | null;
  confirmation?: Record<string, unknown> | null;
  scopes: string[];
}

/** One `oauthRefreshToken` row. */
export interface OAuthRefreshTokenRow extends TokenRowBase {
  userId: string;
  rotatedAt?: Date | null;
  rotationReplayResponse?: string | null;
  rotationReplayExpiresAt?: Date | null;
  authTime?: Date | null;
}

/** One `oauthAccessToken` row (opaque access tokens only). */
export interface OAuthAccessTokenRow extends TokenRowBase {
  userId?: string | null;
  refreshId?: string | null;
}

/** One `oauthConsent` row. */
export interface OAuthConsentRow {
  id: string;
  clientId: string;
  userId?: string | null;
  referenceId?: string | null;
  resources?: string[] | null;
  requestedUserInfoClaims?: string[] | null;
  scopes: string[];
  createdAt: Date;
  updatedAt: Date;
}
