// Browser-safe entry (`@latchkey/oauth-provider/client`): the provider's routes as
// `@latchkey/client` methods. Type-only imports, so no server code reaches a bundle.
import type { Call, ClientPlugin, ClientResult } from "@latchkey/client";

/** Where the browser goes next: the client's redirect URI (with a code or an error) or another page. */
export interface OAuthRedirect {
  redirect: true;
  url: string;
}

/** RFC 7591 client information, as registration answers it. */
export type OAuthClientInformation = { client_id: string; client_secret?: string; redirect_uris: string[] } & Record<string, unknown>;

/** A stored consent, as the consent routes answer it (dates as JSON strings). */
export interface OAuthConsent {
  id: string;
  clientId: string;
  userId: string;
  scopes: string[];
  createdAt: string;
  updatedAt: string;
  [field: string]: unknown;
}

/**
 * The signed authorization request of the current page (a login or consent page the provider
 * sent the browser to): `sig`, the `ba_param` list and the parameters it names, nothing else.
 */
export function currentOAuthQuery(search = globalThis.location?.search ?? ""): string | undefined {
  const params = new URLSearchParams(search);
  const signed = new Set(params.getAll("ba_param"));
  if (!params.has("sig") || signed.size === 0) return undefined;
  const out = new URLSearchParams();
  for (const [key, value] of params) if (key === "sig" || key === "ba_param" || signed.has(key)) out.append(key, value);
  return out.toString();
}

/** The methods the client gains, under the reference client's names (`authClient.oauth2.*`). */
export interface OAuthProviderClientMethods {
  oauth2: {
    /** `POST /oauth2/consent`: accept (all or some of the scopes) or deny; the page's signed query is sent along. */
    consent(body: { accept: boolean; scope?: string; oauth_query?: string }): Promise<ClientResult<OAuthRedirect>>;
    /** `POST /oauth2/continue`: an account-selection, sign-up or post-login page's step is done; the page's signed query is sent along. */
    continue(body: { selected?: boolean; created?: boolean; postLogin?: boolean; oauth_query?: string }): Promise<ClientResult<OAuthRedirect>>;
    /** `POST /oauth2/end-session` (RP-Initiated Logout): `{ redirect, url }` to the registered post-logout URI, or `null`. */
    endSession(body: { id_token_hint?: string; client_id?: string; post_logout_redirect_uri?: string; state?: string }): Promise<ClientResult<OAuthRedirect | null>>;
    /** `POST /oauth2/register` (RFC 7591). */
    register(body: Record<string, unknown> & { redirect_uris?: string[] }): Promise<ClientResult<OAuthClientInformation>>;
    /** `POST /oauth2/create-client`: a client owned by the signed-in user. */
    createClient(body: Record<string, unknown> & { redirect_uris?: string[] }): Promise<ClientResult<OAuthClientInformation>>;
    /** `POST /oauth2/update-client`: changes one of the user's clients. */
    updateClient(body: { client_id: string; update: Record<string, unknown> }): Promise<ClientResult<OAuthClientInformation>>;
    /** `GET /oauth2/get-client`: one of the user's clients (no secret). */
    getClient(args: { query: { client_id: string } }): Promise<ClientResult<OAuthClientInformation>>;
    /** `GET /oauth2/get-clients`: the user's clients. */
    getClients(): Promise<ClientResult<OAuthClientInformation[]>>;
    /** `GET /oauth2/public-client`: what a consent page shows of a client. */
    publicClient(args: { query: { client_id: string } }): Promise<ClientResult<Record<string, unknown>>>;
    /** `POST /oauth2/delete-client`. */
    deleteClient(body: { client_id: string }): Promise<ClientResult<null>>;
    client: {
      /** `POST /oauth2/client/rotate-secret`: the new secret, shown once. */
      rotateSecret(body: { client_id: string }): Promise<ClientResult<OAuthClientInformation>>;
    };
    /** `GET /oauth2/get-consent`. */
    getConsent(args: { query: { id: string } }): Promise<ClientResult<OAuthConsent>>;
    /** `GET /oauth2/get-consents`: the user's consents. */
    getConsents(): Promise<ClientResult<OAuthConsent[]>>;
    /** `POST /oauth2/update-consent`: new scopes for a consent. */
    updateConsent(body: { id: string; update: { scopes: string[] } }): Promise<ClientResult<OAuthConsent>>;
    /** `POST /oauth2/delete-consent`. */
    deleteConsent(body: { id: string }): Promise<ClientResult<null>>;
  };
}

/**
 * The client plugin for `oauthProvider()`. Like the reference's `oauthProviderClient()`, a
 * consent sent from the consent page carries that page's signed query.
 *
 * @example
 * const client = createAuthClient({ baseURL, plugins: [oauthProviderClient()] });
 * const { data } = await client.oauth2.consent({ accept: true });
 * if (data) location.href = data.url;
 */
export const oauthProviderClient = (): ClientPlugin<OAuthProviderClientMethods> & { id: "oauth-provider-client" } => ({
  id: "oauth-provider-client",
  methods: (call: Call) => ({
    oauth2: {
      consent: (body) => {
        const oauthQuery = body.oauth_query ?? currentOAuthQuery();
        return call<OAuthRedirect>("/oauth2/consent", { method: "POST", body: oauthQuery ? { ...body, oauth_query: oauthQuery } : body });
      },
      continue: (body) => {
        const oauthQuery = body.oauth_query ?? currentOAuthQuery();
        return call<OAuthRedirect>("/oauth2/continue", { method: "POST", body: oauthQuery ? { ...body, oauth_query: oauthQuery } : body });
      },
      endSession: (body) => call<OAuthRedirect | null>("/oauth2/end-session", { method: "POST", body }),
      register: (body) => call<OAuthClientInformation>("/oauth2/register", { method: "POST", body }),
      createClient: (body) => call<OAuthClientInformation>("/oauth2/create-client", { method: "POST", body }),
      updateClient: (body) => call<OAuthClientInformation>("/oauth2/update-client", { method: "POST", body }),
      getClient: ({ query }) => call<OAuthClientInformation>("/oauth2/get-client", { method: "GET", query }),
      getClients: () => call<OAuthClientInformation[]>("/oauth2/get-clients", { method: "GET" }),
      publicClient: ({ query }) => call<Record<string, unknown>>("/oauth2/public-client", { method: "GET", query }),
      deleteClient: (body) => call<null>("/oauth2/delete-client", { method: "POST", body }),
      client: { rotateSecret: (body) => call<OAuthClientInformation>("/oauth2/client/rotate-secret", { method: "POST", body }) },
      getConsent: ({ query }) => call<OAuthConsent>("/oauth2/get-consent", { method: "GET", query }),
      getConsents: () => call<OAuthConsent[]>("/oauth2/get-consents", { method: "GET" }),
      updateConsent: (body) => call<OAuthConsent>("/oauth2/update-consent", { method: "POST", body }),
      deleteConsent: (body) => call<null>("/oauth2/delete-consent", { method: "POST", body }),
    },
  }),
});
