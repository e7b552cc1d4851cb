import type { AuthContext } from "@latchkey/core";
import { JWT_BEARER_ASSERTION } from "./client-assertion.js";
import type { ClientDiscovery, OAuthClientAuthenticationStrategy, OAuthExtensionContext, OAuthProviderExtension } from "./extension-types.js";
import type { ResolvedOAuthOptions } from "./options.js";

/** Token endpoint auth methods the provider itself serves; an extension cannot take their names. */
const RESERVED_METHODS = new Set(["none", "client_secret_basic", "client_secret_post", "private_key_jwt"]);

function nonEmpty(what: string, value: string): void {
  if (!value.trim()) throw new TypeError(`oauthProvider: an extension ${what} cannot be empty`);
}

/** RFC 6749 §4.5 (grant types) and RFC 7521 §4.2 (assertion types): extension values are absolute URIs. */
function absoluteUri(what: string, value: string): void {
  nonEmpty(what, value);
  if (!URL.canParse(value)) throw new TypeError(`oauthProvider: an extension ${what} must be an absolute URI: ${value}`);
}

function disjoint(what: string, values: string[]): void {
  const seen = new Set<string>();
  for (const value of values) {
    if (seen.has(value)) throw new TypeError(`oauthProvider: extensions register the ${what} "${value}" more than once; contributions must be disjoint`);
    seen.add(value);
  }
}

/** The discovery sources of one extension, as a list. */
const discoveriesOf = (extension: OAuthProviderExtension): ClientDiscovery[] =>
  extension.clientDiscovery ? [extension.clientDiscovery].flat() : [];

/** The assertion types a strategy consumes: its list, else its method name. */
const assertionTypesOf = (method: string, strategy: OAuthClientAuthenticationStrategy): string[] => strategy.assertionTypes ?? [method];

/**
 * Checks a list of extensions as the reference does, as a `TypeError` (misconfiguration):
 * grant and assertion types absolute URIs, no built-in auth method name, no assertion type
 * of `private_key_jwt`, and nothing two extensions would both answer (the second would be
 * unreachable).
 */
export function validateExtensions(extensions: readonly OAuthProviderExtension[]): void {
  const grants: string[] = [];
  const methods: string[] = [];
  const assertions: string[] = [];
  const discoveries: string[] = [];
  for (const extension of extensions) {
    for (const grant of Object.keys(extension.grants ?? {})) {
      absoluteUri("grant type", grant);
      grants.push(grant);
    }
    for (const [method, strategy] of Object.entries(extension.clientAuthentication ?? {})) {
      nonEmpty("token_endpoint_auth_method", method);
      if (RESERVED_METHODS.has(method)) throw new TypeError(`oauthProvider: the token_endpoint_auth_method ${method} is reserved`);
      methods.push(method);
      const types = assertionTypesOf(method, strategy);
      if (!types.length) throw new TypeError(`oauthProvider: the client_assertion_type list of ${method} cannot be empty`);
      for (const type of types) {
        absoluteUri("client_assertion_type", type);
        if (type === JWT_BEARER_ASSERTION) throw new TypeError(`oauthProvider: the client_assertion_type ${type} is reserved`);
        assertions.push(type);
      }
    }
    for (const discovery of discoveriesOf(extension)) {
      nonEmpty("client discovery id", discovery.id);
      discoveries.push(discovery.id);
    }
  }
  disjoint("grant type", grants);
  disjoint("token_endpoint_auth_method", methods);
  disjoint("client_assertion_type", assertions);
  disjoint("client discovery id", discoveries);
}

/** The options of the installed `oauthProvider()`, if any. */
function providerOptions(ctx: Pick<AuthContext, "plugins">): ResolvedOAuthOptions | undefined {
  const plugin = ctx.plugins.find((candidate) => candidate.id === "oauth-provider");
  return plugin?.options as ResolvedOAuthOptions | undefined;
}

/** Every extension of the installed provider: its `extensions` option, then those added by `extendOAuthProvider`. */
export const extensionsOf = (ctx: Pick<AuthContext, "plugins">): readonly OAuthProviderExtension[] => providerOptions(ctx)?.extensions ?? [];

/**
 * Adds an extension to the installed `oauthProvider()` from a companion plugin's `init(ctx)`,
 * as the reference's function of that name. Adding the same object again does nothing (one
 * plugin object shared by two instances); a bad or overlapping extension is a `TypeError`,
 * and so is calling it without `oauthProvider()`.
 *
 * @example
 * init: (ctx) => extendOAuthProvider(ctx, { grants: { "urn:example:grant": async ({ provider }) => provider.issueTokens({ ... }) } })
 */
export function extendOAuthProvider(ctx: Pick<AuthContext, "plugins">, extension: OAuthProviderExtension): void {
  const options = providerOptions(ctx);
  if (!options) throw new TypeError("extendOAuthProvider requires the oauth-provider plugin");
  if (options.extensions.includes(extension)) return;
  validateExtensions([...options.extensions, extension]);
  options.extensions.push(extension);
}

/** The extension handler of `grantType`, if one was registered. */
export function extensionGrant(ctx: Pick<AuthContext, "plugins">, grantType: string) {
  for (const extension of extensionsOf(ctx)) {
    const handler = extension.grants?.[grantType];
    if (handler) return handler;
  }
  return undefined;
}

/** Grant types the extensions add. */
export const extensionGrantTypes = (ctx: Pick<AuthContext, "plugins">): string[] =>
  extensionsOf(ctx).flatMap((extension) => Object.keys(extension.grants ?? {}));

/** Token endpoint auth methods the extensions add. */
export const extensionAuthMethods = (ctx: Pick<AuthContext, "plugins">): string[] =>
  extensionsOf(ctx).flatMap((extension) => Object.keys(extension.clientAuthentication ?? {}));

/** The strategy consuming `assertionType` and its method name; never for `private_key_jwt`'s type. */
export function extensionStrategy(ctx: Pick<AuthContext, "plugins">, assertionType: string) {
  if (assertionType === JWT_BEARER_ASSERTION) return undefined;
  for (const extension of extensionsOf(ctx)) {
    for (const [method, strategy] of Object.entries(extension.clientAuthentication ?? {})) {
      if (assertionTypesOf(method, strategy).includes(assertionType)) return { method, strategy };
    }
  }
  return undefined;
}

/** Every client discovery source, in registration order. */
export const clientDiscoveries = (ctx: Pick<AuthContext, "plugins">): ClientDiscovery[] => extensionsOf(ctx).flatMap(discoveriesOf);

/**
 * Claims the extensions contribute, first registered wins a name (with a warning), names in
 * `owned` dropped: a contributor adds claims, never replaces one the provider set.
 */
export async function collectExtensionClaims<I>(
  ctx: AuthContext,
  pick: (extension: OAuthProviderExtension) => ((input: I) => unknown) | undefined,
  input: I,
  owned: ReadonlySet<string> | Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const taken = owned instanceof Set ? (name: string) => owned.has(name) : (name: string) => name in owned;
  const claims: Record<string, unknown> = {};
  for (const extension of extensionsOf(ctx)) {
    const contribute = pick(extension);
    if (!contribute) continue;
    const contribution = ((await contribute(input)) ?? {}) as Record<string, unknown>;
    for (const [name, value] of Object.entries(contribution)) {
      if (value === undefined || taken(name)) continue;
      if (name in claims) {
        ctx.logger.warn(`oauth-provider: two extensions contributed the claim "${name}"; keeping the first-registered value`);
        continue;
      }
      claims[name] = value;
    }
  }
  return claims;
}

/** The context handed to hooks that run outside an endpoint. */
export const extensionContext = (context: AuthContext): OAuthExtensionContext => ({ context });
