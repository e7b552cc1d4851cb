import {
  createAuthorizationURL,
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
  tokens: OAuth2Tokens;
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
  /** Endpoint URLs by name; `authorization` and `token` are used by the flow itself. */
  endpoints: { authorization: string; token: string } & Record<string, string>;
  /** Default scopes (dropped by `disableDefaultScope`). */
  scopes: string[] | ((options: Options) => string[]);
  /** @default " " */
  scopeJoiner?: string;
  /** Send PKCE (S256) in the authorization and token requests. @default false */
  pkce?: boolean;
  /** Forward the sign-in's `loginHint` as `login_hint` (only where the reference does). @default false */
  loginHint?: boolean;
  /** Extra authorization parameters (e.g. `access_type`); caller's `additionalParams` win, reserved ones never apply. */
  authorizationParams?: (options: Options, data: AuthorizationData) => Record<string, string | undefined>;
  /** The `prompt` sent when the options name none. */
  defaultPrompt?: string;
  /** Token endpoint client authentication. @default client_secret_post with a secret, none without */
  tokenAuth?: "client_secret_basic" | "client_secret_post";
  /** Extra token-request parameters. */
  tokenParams?: (options: Options) => Record<string, string>;
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

/** Builds the factory of a provider described by `spec`. */
export function defineProvider<Profile extends object, Options extends SocialProviderOptions<Profile>>(
  spec: ProviderSpec<Profile, Options>,
): ProviderFactory<Profile, Options> {
  const factory = (options: Options): OAuthProvider<Profile> => {
    const endpoint: EndpointOf = (name) => {
      const url = options.endpoints?.[name] ?? spec.endpoints[name];
      if (!url) throw new TypeError(`${spec.name}: no "${name}" endpoint.`);
      return url;
    };
    const credentials = () => ({
      clientId: primaryClientId(options.clientId),
      clientSecret: options.clientSecret,
      tokenEndpointAuth: clientAuth(options, spec.tokenAuth),
    });
    const defaults = typeof spec.scopes === "function" ? spec.scopes(options) : spec.scopes;
    const idToken = spec.idToken?.(options, endpoint);

    const provider: OAuthProvider<Profile> = {
      id: spec.id,
      name: spec.name,
      options,
      disableImplicitSignUp: options.disableImplicitSignUp,
      disableSignUp: options.disableSignUp,
      ...(idToken ? { idToken } : {}),
      accountSubject: ({ profile, tokens }) => spec.subject(profile, tokens),

      createAuthorizationURL(data) {
        const scopes = [
          ...new Set([
            ...(options.disableDefaultScope ? [] : defaults),
            ...(options.scope ?? []),
            ...(data.scopes ?? []),
          ]),
        ];
        const extra: Record<string, string> = {};
        for (const [key, value] of Object.entries(spec.authorizationParams?.(options, data) ?? {})) {
          if (value !== undefined) extra[key] = value;
        }
        return createAuthorizationURL({
          authorizationEndpoint: options.authorizationEndpoint ?? endpoint("authorization"),
          clientId: primaryClientId(options.clientId),
          redirectURI: options.redirectURI ?? data.redirectURI,
          state: data.state,
          codeVerifier: spec.pkce ? data.codeVerifier : undefined,
          scopes,
          scopeJoiner: spec.scopeJoiner,
          prompt: options.prompt ?? spec.defaultPrompt,
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
          codeVerifier: spec.pkce ? data.codeVerifier : undefined,
          deviceId: data.deviceId,
          additionalParams: spec.tokenParams?.(options),
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
