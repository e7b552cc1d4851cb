import type { ModelIndex, SchemaDefinition } from "@latchkey/core";

/**
 * The rows whose `domain` holds a comma-separated list, indexed apart (a partial index, or on
 * MySQL an indexed predicate column), so the sign-in lookup that reads them (`domain` contains
 * ",") never reads the table.
 */
function domainListIndex(table: string): ModelIndex {
  return {
    fields: ["domain"],
    name: `${table}_domain_list_idx`,
    where: { field: "domain", operator: "contains", value: "," },
  };
}

/**
 * The `ssoProvider` table, column for column the reference's: `oidcConfig` and `samlConfig`
 * are JSON text, `domain` one domain or a comma-separated list, `providerId` unique,
 * `organizationId` without a foreign key (the organization plugin is optional).
 */
export const ssoSchema = {
  ssoProvider: {
    fields: {
      issuer: { type: "string", required: true },
      oidcConfig: { type: "string", required: false },
      samlConfig: { type: "string", required: false },
      userId: {
        type: "string",
        required: true,
        references: { model: "user", field: "id", onDelete: "cascade" },
      },
      providerId: { type: "string", required: true, unique: true },
      // Latchkey's indexes (the reference has none): sign-in by organization and by email domain.
      organizationId: { type: "string", required: false, index: true },
      domain: { type: "string", required: true, index: true },
    },
    indexes: [domainListIndex("ssoProvider")],
  },
} satisfies SchemaDefinition;

/** One `ssoProvider` row as the adapter reads it. */
export interface SSOProviderRow {
  id: string;
  issuer: string;
  oidcConfig?: string | null;
  samlConfig?: string | null;
  userId: string;
  providerId: string;
  organizationId?: string | null;
  domain: string;
  domainVerified?: boolean | null;
  [field: string]: unknown;
}

/** The keys of the stored `oidcConfig` JSON, as the reference writes them. */
export interface StoredOIDCConfig {
  issuer: string;
  clientId: string;
  clientSecret?: string | undefined;
  authorizationEndpoint?: string | undefined;
  tokenEndpoint?: string | undefined;
  tokenEndpointAuthentication?: TokenEndpointAuthentication | undefined;
  privateKeyId?: string | undefined;
  privateKeyAlgorithm?: string | undefined;
  jwksEndpoint?: string | undefined;
  pkce: boolean;
  discoveryEndpoint: string;
  mapping?: OIDCMapping | undefined;
  scopes?: string[] | undefined;
  userInfoEndpoint?: string | undefined;
  overrideUserInfo: boolean;
  allowIdpInitiated?: boolean | undefined;
}

/** How the client authenticates at the token endpoint. */
export type TokenEndpointAuthentication = "client_secret_basic" | "client_secret_post" | "private_key_jwt";

/** Which claims fill which user fields. */
export interface OIDCMapping {
  id?: string | undefined;
  email?: string | undefined;
  emailVerified?: string | undefined;
  name?: string | undefined;
  image?: string | undefined;
  extraFields?: Record<string, string> | undefined;
}

/** Parses a row's `oidcConfig` text; null when absent or not a JSON object. */
export function parseOIDCConfig(row: SSOProviderRow): StoredOIDCConfig | null {
  if (!row.oidcConfig) return null;
  try {
    const parsed: unknown = JSON.parse(row.oidcConfig);
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)
      ? (parsed as StoredOIDCConfig)
      : null;
  } catch {
    return null;
  }
}

/** The reference's `domainVerified` column, present only with `domainVerification.enabled`. */
const domainVerifiedField = {
  domainVerified: { type: "boolean", required: false },
} satisfies SchemaDefinition[string]["fields"];

/**
 * The table with `domainVerified` (when verification is enabled), the `modelName` and `fields`
 * renames applied and the additional fields added.
 */
export function resolveSSOSchema(options: {
  modelName?: string | undefined;
  fields?: Partial<Record<string, string>> | undefined;
  domainVerification?: { enabled?: boolean | undefined } | undefined;
  additionalFields?: SchemaDefinition[string]["fields"] | undefined;
}): SchemaDefinition {
  const verified = options.domainVerification?.enabled === true;
  const extra = options.additionalFields ?? {};
  if (!options.modelName && !options.fields && !verified && !Object.keys(extra).length) return ssoSchema;
  const all = { ...ssoSchema.ssoProvider.fields, ...(verified ? domainVerifiedField : {}) };
  const fields: SchemaDefinition[string]["fields"] = {};
  for (const [key, field] of Object.entries(all)) {
    const column = options.fields?.[key];
    fields[key] = column ? { ...field, fieldName: column } : field;
  }
  Object.assign(fields, extra);
  const indexes = [domainListIndex(options.modelName ?? "ssoProvider")];
  return { ssoProvider: { fields, indexes, ...(options.modelName ? { modelName: options.modelName } : {}) } };
}
