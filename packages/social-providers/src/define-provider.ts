import {
  createAuthorizationURL,
  oauthFlow,
  refreshAccessToken,
  validateAuthorizationCode,
  type Awaitable,
  type OAuth2Tokens,
  type OAuth2UserInfo,
  type OAuthIdTokenConfig,
  type OAuthProvider,
  type TokenEndpointAuth,
} from "@latchkey/core";
import { primaryClientId, type SocialProviderOptions } from "./options.js";

/** The endpoint URL of a name: the option's override, else the provider's own. */
export type EndpointOf = (name: string) => string;

/** What a provider's profile lookup gets. */
export interface ProfileContext<Options> {
  /** The tokens, plus what the sign-in passes beside them (Apple's first-sign-in `user`). */
  tokens: Parameters<OAuthProvider["getUserInfo"]>[0];
  options: Options;
  endpoint: EndpointOf;
}

/** Parameters of one authorization request, as the social routes pass them. */
export type AuthorizationData = Parameters<OAuthProvider["createAuthorizationURL"]>[0];

/**
 * A provider described as data: its endpoints, scopes and quirks, and how its profile is read
 * and mapped. {@link defineProvider} turns it into a factory of {@link OAuthProvider}s that
 * share one authorization-code flow, so each provider file holds only what is its own.
 */
export interface ProviderSpec<Profile extends object, Options extends SocialProviderOptions<Profile>> {
  id: string;
  name: string;
  /**
   * Endpoint URLs by name; `authorization` and `token` are used by the flow itself. A function
   * builds them from the options (a self-hosted issuer, a sandbox environment).
   */
  endpoints: ProviderEndpoints | ((options: Options) => ProviderEndpoints);
  /** Default scopes (dropped by `disableDefaultScope`). */
  scopes: string[] | ((options: Options) => string[]);
  /** @default " " */
  scopeJoiner?: string;
  /** Send PKCE (S256) in the authorization and token requests. @default false */
  pkce?: boolean | ((options: Options) => boolean);
  /** Forward the sign-in's `loginHint` as `login_hint` (only where the reference does). @default false */
  loginHint?: boolean;
  /** Extra authorization parameters (e.g. `access_type`); caller's `additionalParams` win, reserved ones never apply. */
  authorizationParams?: (options: Options, data: AuthorizationData) => Record<string, string | undefined>;
  /** The `prompt` sent when the options name none. */
  defaultPrompt?: string;
  /** False where the reference ignores `options.prompt` (then only `defaultPrompt` is sent). @default true */
  forwardPrompt?: boolean;
  /** The redirect flow needs a `clientSecret` (ID-token sign-in works without); a start without one throws. @default false */
  requiresSecret?: boolean;
  /** Token endpoint client authentication. @default client_secret_post with a secret, none without */
  tokenAuth?: SecretAuthMethod | ((options: Options) => SecretAuthMethod | undefined);
  /** Extra token-request parameters. */
  tokenParams?: (options: Options) => Record<string, string>;
  /** Extra headers of the code exchange (e.g. a User-Agent the provider insists on). */
  tokenHeaders?: Record<string, string>;
  /** False for providers that issue no refresh tokens. @default true */
  refresh?: boolean;
  /** Reads the provider profile; null when it cannot (the sign-in then fails with `unable_to_get_user_info`). */
  profile(context: ProfileContext<Options>): Promise<Profile | null>;
  /** Local user attributes from the profile (before `mapProfileToUser`). */
  user(profile: Profile, tokens: OAuth2Tokens, options: Options): Awaitable<OAuth2UserInfo>;
  /** The stable provider account id. */
  subject(profile: Profile, tokens: OAuth2Tokens): string | number;
  /** How a client-submitted ID token is verified; providers without one refuse ID-token sign-in. */
  idToken?: (options: Options, endpoint: EndpointOf) => OAuthIdTokenConfig | undefined;
  /** Last adjustments for providers whose flow departs from the shared one. */
  customize?: (provider: OAuthProvider<Profile>, options: Options, endpoint: EndpointOf) => void;
}

/** Client authentication with a secret (RFC 6749 §2.3.1): HTTP Basic or form fields. */
export type SecretAuthMethod = "client_secret_basic" | "client_secret_post";

/** A provider's endpoint URLs by name. */
export type ProviderEndpoints = { authorization: string; token: string } & Record<string, string>;

/** A provider factory: options in, provider out. `id` names the provider it makes. */
export interface ProviderFactory<Profile extends object, Options extends SocialProviderOptions<Profile>> {
  (options: Options): OAuthProvider<Profile>;
  readonly id: string;
}

const clientAuth = (
  options: { tokenEndpointAuth?: TokenEndpointAuth | undefined; clientSecret?: string | undefined },
  fallback: "client_secret_basic" | "client_secret_post" | undefined,
): TokenEndpointAuth | undefined =>
  options.tokenEndpointAuth ?? (fallback && options.clientSecret ? { method: fallback } : undefined);

/** The scopes of one authorization request: defaults (unless disabled), configured, then asked, once each. */
export function requestedScopes(
  defaults: readonly string[],
  options: Pick<SocialProviderOptions, "disableDefaultScope" | "scope">,
  data: Pick<AuthorizationData, "scopes">,
): string[] {
  return [
    ...new Set([
      ...(options.disableDefaultScope ? [] : defaults),
      ...(options.scope ?? []),
      ...(data.scopes ?? []),
    ]),
  ];
}

/** Builds the factory of a provider described by `spec`. */
export function defineProvider<Profile extends object, Options extends SocialProviderOptions<Profile>>(
  spec: ProviderSpec<Profile, Options>,
): ProviderFactory<Profile, Options> {
  const factory = (options: Options): OAuthProvider<Profile> => {
    const own = typeof spec.endpoints === "function" ? spec.endpoints(options) : spec.endpoints;
    const endpoint: EndpointOf = (name) => {
      const url = options.endpoints?.[name] ?? own[name];
      if (!url) throw new TypeError(`${spec.name}: no "${name}" endpoint.`);
      return url;
    };
    const credentials = () => ({
      clientId: primaryClientId(options.clientId),
      clientSecret: options.clientSecret,
      tokenEndpointAuth: clientAuth(
        options,
        typeof spec.tokenAuth === "function" ? spec.tokenAuth(options) : spec.tokenAuth,
      ),
    });
    const defaults = typeof spec.scopes === "function" ? spec.scopes(options) : spec.scopes;
    const idToken = spec.idToken?.(options, endpoint);
    const pkce = typeof spec.pkce === "function" ? spec.pkce(options) : spec.pkce === true;
    const prompt = spec.forwardPrompt === false ? spec.defaultPrompt : (options.prompt ?? spec.defaultPrompt);

    const provider: OAuthProvider<Profile> = {
      id: spec.id,
      name: spec.name,
      options,
      disableImplicitSignUp: options.disableImplicitSignUp,
      disableSignUp: options.disableSignUp,
      // Core's routes run the sign-in, link and token operations through it.
      flow: oauthFlow,
      ...(idToken ? { idToken } : {}),
      accountSubject: ({ profile, tokens }) => spec.subject(profile, tokens),

      createAuthorizationURL(data) {
        if (spec.requiresSecret && !options.clientSecret)
          throw new TypeError(`${spec.name}: the sign-in redirect needs a clientSecret.`);
        const scopes = requestedScopes(defaults, options, data);
        const extra: Record<string, string> = {};
        for (const [key, value] of Object.entries(spec.authorizationParams?.(options, data) ?? {})) {
          if (value !== undefined) extra[key] = value;
        }
        return createAuthorizationURL({
          authorizationEndpoint: options.authorizationEndpoint ?? endpoint("authorization"),
          clientId: primaryClientId(options.clientId),
          redirectURI: options.redirectURI ?? data.redirectURI,
          state: data.state,
          codeVerifier: pkce ? data.codeVerifier : undefined,
          scopes,
          scopeJoiner: spec.scopeJoiner,
          prompt,
          responseMode: options.responseMode,
          display: data.display,
          loginHint: spec.loginHint ? data.loginHint : undefined,
          nonce: data.idTokenNonce,
          additionalParams: { ...extra, ...data.additionalParams },
        });
      },

      validateAuthorizationCode(data) {
        return validateAuthorizationCode({
          ...credentials(),
          tokenEndpoint: endpoint("token"),
          code: data.code,
          redirectURI: options.redirectURI ?? data.redirectURI,
          codeVerifier: pkce ? data.codeVerifier : undefined,
          deviceId: data.deviceId,
          additionalParams: spec.tokenParams?.(options),
          headers: spec.tokenHeaders,
        });
      },

      async getUserInfo(tokens) {
        if (options.getUserInfo) return options.getUserInfo(tokens);
        const profile = await spec.profile({ tokens, options, endpoint });
        if (!profile) return null;
        const user = await spec.user(profile, tokens, options);
        const mapped = await options.mapProfileToUser?.(profile);
        return { user: { ...user, ...mapped } as OAuth2UserInfo, data: profile };
      },
    };
    if (options.refreshAccessToken) provider.refreshAccessToken = options.refreshAccessToken;
    else if (spec.refresh !== false) {
      provider.refreshAccessToken = (refreshToken) =>
        refreshAccessToken({ ...credentials(), tokenEndpoint: endpoint("token"), refreshToken });
    }
    spec.customize?.(provider, options, endpoint);
    return provider;
  };
  return Object.assign(factory, { id: spec.id }) as ProviderFactory<Profile, Options>;
}
