// Browser-safe entry (`@latchkey/sso/client`): the routes as `@latchkey/client` methods.
// Type-only imports, so no server code reaches a bundle.
import type { Call, ClientPlugin, ClientResult } from "@latchkey/client";
import type { SanitizedProvider } from "./sanitize.js";

/** `POST /sso/register`'s body (OIDC). */
export interface RegisterSSOProviderBody {
  providerId: string;
  issuer: string;
  domain: string;
  organizationId?: string;
  overrideUserInfo?: boolean;
  oidcConfig: {
    clientId: string;
    clientSecret?: string;
    discoveryEndpoint?: string;
    skipDiscovery?: boolean;
    authorizationEndpoint?: string;
    tokenEndpoint?: string;
    userInfoEndpoint?: string;
    jwksEndpoint?: string;
    tokenEndpointAuthentication?: "client_secret_basic" | "client_secret_post" | "private_key_jwt";
    /** `private_key_jwt`: the `kid` and algorithm of the client's assertion key. */
    privateKeyId?: string;
    privateKeyAlgorithm?: string;
    scopes?: string[];
    pkce?: boolean;
    overrideUserInfo?: boolean;
    mapping?: Record<string, unknown>;
  };
}

/** `POST /sign-in/sso`'s body. */
export interface SignInSSOBody {
  callbackURL: string;
  email?: string;
  /** The organization (organization plugin) whose provider signs the user in. */
  organizationSlug?: string;
  providerId?: string;
  domain?: string;
  errorCallbackURL?: string;
  newUserCallbackURL?: string;
  scopes?: string[];
  loginHint?: string;
  additionalParams?: Record<string, string>;
  requestSignUp?: boolean;
  /** `"saml"` is refused (SAML is not served). */
  providerType?: "oidc" | "saml";
}

/** The methods the client gains, under the reference client's names (`authClient.sso.*`, `authClient.signIn.sso`). */
export interface SSOClientMethods {
  signIn: {
    /** `POST /sign-in/sso`: the IdP's authorization URL to send the browser to. */
    sso(body: SignInSSOBody): Promise<ClientResult<{ url: string; redirect: boolean }>>;
  };
  sso: {
    /** `POST /sso/register`: the sanitized provider and its redirect URI. */
    register(
      body: RegisterSSOProviderBody,
    ): Promise<ClientResult<SanitizedProvider & { redirectURI: string }>>;
    /** `GET /sso/providers`. */
    providers(): Promise<ClientResult<{ providers: SanitizedProvider[] }>>;
    /** `GET /sso/get-provider`. */
    getProvider(query: { providerId: string }): Promise<ClientResult<SanitizedProvider>>;
    /** `POST /sso/update-provider`. */
    updateProvider(
      body: { providerId: string } & Partial<Pick<RegisterSSOProviderBody, "issuer" | "domain">> & {
          oidcConfig?: Partial<RegisterSSOProviderBody["oidcConfig"]>;
        },
    ): Promise<ClientResult<SanitizedProvider>>;
    /** `POST /sso/delete-provider`. */
    deleteProvider(body: { providerId: string }): Promise<ClientResult<{ success: boolean }>>;
    /** `POST /sso/request-domain-verification` (with `domainVerification.enabled`): the token for the DNS TXT record. */
    requestDomainVerification(body: {
      providerId: string;
    }): Promise<ClientResult<{ domainVerificationToken: string }>>;
    /** `POST /sso/verify-domain`: checks the TXT record and marks the domain verified (204, no data). */
    verifyDomain(body: { providerId: string }): Promise<ClientResult<null>>;
  };
}

/**
 * The client plugin for `sso()`.
 *
 * @example
 * const client = createAuthClient({ baseURL, plugins: [ssoClient()] });
 * const { data } = await client.sso.providers();
 */
export const ssoClient = (): ClientPlugin<SSOClientMethods> & { id: "sso" } => ({
  id: "sso",
  methods: (call: Call) => ({
    signIn: {
      sso: (body) => call("/sign-in/sso", { method: "POST", body }),
    },
    sso: {
      register: (body) => call("/sso/register", { method: "POST", body }),
      providers: () => call("/sso/providers", { method: "GET" }),
      getProvider: (query) => call("/sso/get-provider", { method: "GET", query }),
      updateProvider: (body) => call("/sso/update-provider", { method: "POST", body }),
      deleteProvider: (body) => call("/sso/delete-provider", { method: "POST", body }),
      requestDomainVerification: (body) => call("/sso/request-domain-verification", { method: "POST", body }),
      verifyDomain: (body) => call("/sso/verify-domain", { method: "POST", body }),
    },
  }),
});
