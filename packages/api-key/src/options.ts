import { applicationCallbacks, type EndpointContext, type SecondaryStorage } from "@latchkey/core";

/** Permissions as the reference stores them: resource → actions. */
export type Permissions = Record<string, string[]>;

/** One API-key configuration, under the reference's names; `apiKey()` takes one or a list. */
export interface ApiKeyOptions {
  /** Tells configurations apart; required on each when a list is given. @default "default" */
  configId?: string;
  /** Who owns the keys: the signed-in user, or an organization (needs the organization plugin). @default "user" */
  references?: "user" | "organization";
  /** Request header(s) carrying the key for `enableSessionForAPIKeys`. @default "x-api-key" */
  apiKeyHeaders?: string | string[];
  /** Reads the key from the request instead of the headers. */
  customAPIKeyGetter?: (ctx: EndpointContext) => string | null | undefined;
  /** An extra check of a presented key; `false` refuses it. */
  customAPIKeyValidator?: (args: { ctx: EndpointContext; key: string }) => boolean | Promise<boolean>;
  /** Makes the plain key; the default is the prefix plus `length` letters. */
  customKeyGenerator?: (options: { length: number; prefix: string | undefined }) => string | Promise<string>;
  /** Random characters of a generated key; also the minimum length a header key must have. @default 64 */
  defaultKeyLength?: number;
  /** Prefix of keys created without one. */
  defaultPrefix?: string;
  /** @default 1 */
  minimumPrefixLength?: number;
  /** @default 32 */
  maximumPrefixLength?: number;
  /** @default 1 */
  minimumNameLength?: number;
  /** @default 32 */
  maximumNameLength?: number;
  /** @default false */
  requireName?: boolean;
  /** Allow `metadata` on keys. @default false */
  enableMetadata?: boolean;
  /** Store the plain key instead of its SHA-256 digest (not recommended). @default false */
  disableKeyHashing?: boolean;
  /** Where keys live. @default "database" */
  storage?: "database" | "secondary-storage";
  /** With secondary storage: the database stays the source of truth, storage a cache. @default false */
  fallbackToDatabase?: boolean;
  /** A store used instead of `secondaryStorage`. */
  customStorage?: SecondaryStorage;
  /** Write usage in the background (secondary-storage-only mode) and sweep expired keys in the background. @default false */
  deferUpdates?: boolean;
  /** Defaults of the per-key rate limit. */
  rateLimit?: {
    /** @default true */
    enabled?: boolean;
    /** Window length in milliseconds. @default 86400000 (one day) */
    timeWindow?: number;
    /** Requests allowed per window. @default 10 */
    maxRequests?: number;
  };
  keyExpiration?: {
    /**
     * Lifetime of keys created without `expiresIn`, in milliseconds (the unit the reference
     * documents; it applies the value as seconds, see DIVERGENCES.md). null: no expiry.
     * @default null
     */
    defaultExpiresIn?: number | null;
    /** Refuse `expiresIn` from clients. @default false */
    disableCustomExpiresTime?: boolean;
    /** Longest `expiresIn`, in days. @default 365 */
    maxExpiresIn?: number;
    /** Shortest `expiresIn`, in days. @default 1 */
    minExpiresIn?: number;
  };
  startingCharactersConfig?: {
    /** Store the key's first characters in `start`. @default true */
    shouldStore?: boolean;
    /** @default 6 */
    charactersLength?: number;
  };
  /** A request carrying a key in the API-key header is authenticated as the key's user. @default false */
  enableSessionForAPIKeys?: boolean;
  permissions?: {
    /** Permissions of keys created without any. */
    defaultPermissions?: Permissions | ((referenceId: string, ctx: EndpointContext) => Permissions | Promise<Permissions>);
  };
}

/** A configuration with every default applied. */
export interface ResolvedConfig {
  configId: string;
  references: "user" | "organization";
  apiKeyHeaders: string[];
  customAPIKeyGetter: ApiKeyOptions["customAPIKeyGetter"];
  customAPIKeyValidator: ApiKeyOptions["customAPIKeyValidator"];
  customKeyGenerator: ApiKeyOptions["customKeyGenerator"];
  defaultKeyLength: number;
  defaultPrefix: string | undefined;
  minimumPrefixLength: number;
  maximumPrefixLength: number;
  minimumNameLength: number;
  maximumNameLength: number;
  requireName: boolean;
  enableMetadata: boolean;
  disableKeyHashing: boolean;
  storage: "database" | "secondary-storage";
  fallbackToDatabase: boolean;
  customStorage: SecondaryStorage | undefined;
  deferUpdates: boolean;
  rateLimit: { enabled: boolean; timeWindow: number; maxRequests: number };
  keyExpiration: { defaultExpiresIn: number | null; disableCustomExpiresTime: boolean; maxExpiresIn: number; minExpiresIn: number };
  startingCharactersConfig: { shouldStore: boolean; charactersLength: number };
  enableSessionForAPIKeys: boolean;
  defaultPermissions: NonNullable<ApiKeyOptions["permissions"]>["defaultPermissions"];
}

const DAY_MS = 86_400_000;

function positive(name: string, value: number, allowZero = false): number {
  if (!Number.isFinite(value) || value < 0 || (!allowZero && value === 0)) {
    throw new TypeError(`apiKey: ${name} must be a ${allowZero ? "non-negative" : "positive"} number`);
  }
  return value;
}

/** Applies the defaults to one configuration; impossible values are a `TypeError`. */
export function resolveConfig(options: ApiKeyOptions = {}): ResolvedConfig {
  const headers = options.apiKeyHeaders ?? "x-api-key";
  const minExpiresIn = positive("keyExpiration.minExpiresIn", options.keyExpiration?.minExpiresIn ?? 1, true);
  const maxExpiresIn = positive("keyExpiration.maxExpiresIn", options.keyExpiration?.maxExpiresIn ?? 365, true);
  if (minExpiresIn > maxExpiresIn) throw new TypeError("apiKey: keyExpiration.minExpiresIn exceeds maxExpiresIn");
  const defaultExpiresIn = options.keyExpiration?.defaultExpiresIn ?? null;
  if (defaultExpiresIn !== null) positive("keyExpiration.defaultExpiresIn", defaultExpiresIn);
  return {
    configId: options.configId ?? "default",
    references: options.references ?? "user",
    apiKeyHeaders: (Array.isArray(headers) ? headers : [headers]).map((h) => h.toLowerCase()),
    customAPIKeyGetter: options.customAPIKeyGetter,
    // The application's validator may refuse with an APIError of its own code.
    customAPIKeyValidator: applicationCallbacks(options, ["customAPIKeyValidator"]).customAPIKeyValidator,
    customKeyGenerator: options.customKeyGenerator,
    // Reference: `||`, so 0 means the default too.
    defaultKeyLength: options.defaultKeyLength || 64,
    defaultPrefix: options.defaultPrefix,
    minimumPrefixLength: options.minimumPrefixLength ?? 1,
    maximumPrefixLength: options.maximumPrefixLength ?? 32,
    minimumNameLength: options.minimumNameLength ?? 1,
    maximumNameLength: options.maximumNameLength ?? 32,
    requireName: options.requireName ?? false,
    enableMetadata: options.enableMetadata ?? false,
    disableKeyHashing: options.disableKeyHashing ?? false,
    storage: options.storage ?? "database",
    fallbackToDatabase: options.fallbackToDatabase ?? false,
    customStorage: options.customStorage,
    deferUpdates: options.deferUpdates ?? false,
    rateLimit: {
      enabled: options.rateLimit?.enabled ?? true,
      timeWindow: positive("rateLimit.timeWindow", options.rateLimit?.timeWindow ?? DAY_MS),
      maxRequests: positive("rateLimit.maxRequests", options.rateLimit?.maxRequests ?? 10, true),
    },
    keyExpiration: {
      defaultExpiresIn,
      disableCustomExpiresTime: options.keyExpiration?.disableCustomExpiresTime ?? false,
      maxExpiresIn,
      minExpiresIn,
    },
    startingCharactersConfig: {
      shouldStore: options.startingCharactersConfig?.shouldStore ?? true,
      charactersLength: options.startingCharactersConfig?.charactersLength ?? 6,
    },
    enableSessionForAPIKeys: options.enableSessionForAPIKeys ?? false,
    defaultPermissions: options.permissions?.defaultPermissions,
  };
}

/**
 * Resolves the list `apiKey()` was given: each configuration needs a unique `configId` when
 * there are several (the reference throws at start-up as well).
 */
export function resolveConfigs(input: ApiKeyOptions | ApiKeyOptions[] | undefined): ResolvedConfig[] {
  const list = Array.isArray(input) ? input : [input ?? {}];
  if (Array.isArray(input) && input.length > 0) {
    if (!input.every((c) => c.configId)) {
      throw new TypeError("configId is required for each API key configuration in the api-key plugin.");
    }
    const ids = input.map((c) => c.configId);
    if (new Set(ids).size !== ids.length) {
      throw new TypeError("configId must be unique for each API key configuration in the api-key plugin.");
    }
  }
  return (list.length ? list : [{}]).map(resolveConfig);
}
