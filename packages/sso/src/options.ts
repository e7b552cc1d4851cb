import type { Awaitable, OAuth2Tokens, User } from "@latchkey/core";
import type { SSOProviderMutationGuardContext, SSOProviderMutationGuardInput } from "./mutation-guard.js";
import type { OIDCMapping, StoredOIDCConfig, TokenEndpointAuthentication } from "./schema.js";
import type { ResolveSSOUser } from "./user-resolution.js";
import type { SSOProviderAdditionalFields } from "./additional-fields.js";

/** A provider configured in code (`defaultSSO`), looked up before the database. */
export interface DefaultSSOProvider {
  domain: string;
  providerId: string;
  oidcConfig?: {
    issuer: string;
    clientId: string;
    clientSecret?: string;
    discoveryEndpoint?: string;
    authorizationEndpoint?: string;
    tokenEndpoint?: string;
    userInfoEndpoint?: string;
    jwksEndpoint?: string;
    tokenEndpointAuthentication?: TokenEndpointAuthentication;
    pkce?: boolean;
    scopes?: string[];
    mapping?: OIDCMapping;
    overrideUserInfo?: boolean;
    allowIdpInitiated?: boolean;
  };
  samlConfig?: unknown;
  /** Key material for `private_key_jwt` at the token endpoint; stays in code, never stored. */
  privateKey?: PrivateKeyMaterial;
}

/** A private key for `private_key_jwt` client assertions (RFC 7523): a JWK or a PKCS#8 PEM. */
export interface PrivateKeyMaterial {
  privateKeyJwk?: JsonWebKey;
  privateKeyPem?: string;
  kid?: string;
  algorithm?: string;
}

/** The provider as `provisionUser` and `getRole` see it: the row with `oidcConfig` parsed (`userId` "default" for `defaultSSO`). */
export interface ProvisionedProvider {
  id?: string | undefined;
  providerId: string;
  issuer: string;
  domain: string;
  domainVerified?: boolean | null | undefined;
  userId: string;
  organizationId?: string | null | undefined;
  oidcConfig: StoredOIDCConfig;
  samlConfig?: string | null | undefined;
  [field: string]: unknown;
}

/** What `provisionUser` (and `organizationProvisioning.getRole`) is called with after an SSO sign-in. */
export interface ProvisionUserInput {
  /** The user as stored. */
  user: User & Record<string, unknown>;
  /** The mapped profile: `id` (the subject), `email`, `emailVerified`, `name`, `image`, extra fields. */
  userInfo: Record<string, unknown>;
  token?: OAuth2Tokens | undefined;
  provider: ProvisionedProvider;
}

/** `organizationProvisioning`: membership in a provider's organization on SSO sign-in (organization plugin installed). */
export interface OrganizationProvisioningOptions {
  /** Signing in adds no membership. */
  disabled?: boolean;
  /** The role a new member gets. @default "member" */
  defaultRole?: "member" | "admin";
  /** Chooses the role per sign-in (wins over `defaultRole`). */
  getRole?: (data: ProvisionUserInput) => Promise<"member" | "admin">;
}

/** `domainVerification`: providers prove their domain with a DNS TXT record before anyone signs in through them. */
export interface DomainVerificationOptions {
  /** Adds the `domainVerified` column and the two verification routes; sign-in then refuses unverified providers. */
  enabled?: boolean;
  /** The record name's prefix: `_<tokenPrefix>-<providerId>.<domain>` (the underscore is added). @default "better-auth-token" */
  tokenPrefix?: string;
  /** Name servers (`"ip"` or `"ip:port"`) the TXT lookups ask instead of the system's (`node:dns` only). */
  nameservers?: string[];
  /** Answers TXT lookups instead of `node:dns` (edge runtimes, DNS over HTTPS): each record's strings. */
  resolveTxt?: (hostname: string) => Awaitable<string[][]>;
}

/** Options of `sso()`, under the reference's names (SAML options are not served). */
export interface SSOOptions {
  /** Most providers one user may register (a number or a function of the user); 0 disables registration. @default 10 */
  providersLimit?: number | ((user: User & Record<string, unknown>) => Awaitable<number>);
  /** Providers configured in code, checked before the database. */
  defaultSSO?: DefaultSSOProvider[];
  /** Called after an SSO sign-in creates a user (or on every sign-in with `provisionUserOnEveryLogin`). */
  provisionUser?: (input: ProvisionUserInput) => Awaitable<void>;
  provisionUserOnEveryLogin?: boolean;
  /**
   * Asked before a stored provider is updated or deleted, inside the transaction that locked its
   * row (the reference's argument shapes); throw to refuse (409 `SSO_PROVIDER_MUTATION_REJECTED`).
   */
  guardProviderMutation?: (
    input: SSOProviderMutationGuardInput,
    context: SSOProviderMutationGuardContext,
  ) => Awaitable<void>;
  /**
   * Resolves a verified provider identity to a user on every SSO sign-in, inside the database
   * transaction that writes the account and the session (the reference's shapes): `continue`
   * (core's rules), `link` to a chosen user (`profile` "preserve" or "update"), or `reject`
   * with a callback error code. Needs an adapter with transactions and sessions in the database
   * only (no `secondaryStorage`).
   */
  resolveUser?: ResolveSSOUser;
  /** A user signing in through a provider with an `organizationId` becomes a member of it. */
  organizationProvisioning?: OrganizationProvisioningOptions;
  /** Default of a provider's `overrideUserInfo`. @default false */
  defaultOverrideUserInfo?: boolean;
  /** No user is created by an SSO sign-in unless the request says `requestSignUp: true`. */
  disableImplicitSignUp?: boolean;
  /** @deprecated Trust the IdP's `email_verified` claim. @default false */
  trustEmailVerified?: boolean;
  /** DNS TXT proof of a provider's domain (the reference's `domainVerification`, plus the resolver options). */
  domainVerification?: DomainVerificationOptions;
  /** One callback for every OIDC provider (a path or a URL), served at `/sso/callback`. */
  redirectURI?: string;
  /**
   * Key material for providers using `private_key_jwt` (after `defaultSSO[].privateKey`), called at
   * each token exchange, so keys can live in an HSM, KMS or vault rather than the database.
   */
  resolvePrivateKey?: (params: {
    providerId: string;
    keyId?: string | undefined;
    issuer: string;
  }) => Awaitable<PrivateKeyMaterial>;
  /**
   * Latchkey: store client secrets encrypted (XChaCha20-Poly1305 under the auth secret, core's
   * symmetric format). Rows with a plain secret are still read; the reference cannot use an
   * encrypted secret, so leave it off while both serve the same table. @default false
   */
  encryptClientSecret?: boolean;
  /** Read the account id from `mapping.id` instead of `sub` (providers registered before 1.0 kept it there). @default false */
  legacyMappingId?: boolean;
  /** Renames the table (the reference's `modelName`). */
  modelName?: string;
  /**
   * The reference's `schema.ssoProvider`: `modelName` and `fields` (used where the options above
   * do not say) and `additionalFields`, columns of the table that `/sso/register` and
   * `/sso/update-provider` accept and the provider answers show, as core's field attributes
   * (`type`, `required`, `defaultValue`, `input`, `returned`, `fieldName`, …).
   */
  schema?: {
    ssoProvider?: {
      modelName?: string;
      fields?: SSOOptions["fields"];
      additionalFields?: SSOProviderAdditionalFields;
    };
  };
  /** Renames columns (the reference's `fields`). */
  fields?: Partial<
    Record<
      | "issuer"
      | "oidcConfig"
      | "samlConfig"
      | "userId"
      | "providerId"
      | "organizationId"
      | "domain"
      | "domainVerified",
      string
    >
  >;
}

/** The options with defaults applied. */
export interface ResolvedSSOOptions extends SSOOptions {
  providersLimit: NonNullable<SSOOptions["providersLimit"]>;
  defaultSSO: DefaultSSOProvider[];
  /** `schema.ssoProvider.additionalFields`, or none. */
  additionalFields: SSOProviderAdditionalFields;
}

/** Applies the reference's defaults. */
export function resolveSSOOptions(options: SSOOptions = {}): ResolvedSSOOptions {
  const table = options.schema?.ssoProvider;
  const modelName = options.modelName ?? table?.modelName;
  const fields = table?.fields ? { ...table.fields, ...options.fields } : options.fields;
  return {
    ...options,
    ...(modelName ? { modelName } : {}),
    ...(fields ? { fields } : {}),
    providersLimit: options.providersLimit ?? 10,
    defaultSSO: options.defaultSSO ?? [],
    additionalFields: table?.additionalFields ?? {},
  };
}
