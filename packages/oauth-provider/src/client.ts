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
    /** `POST /oauth2/register` (RFC 7591). */
    register(body: Record<string, unknown> & { redirect_uris?: string[] }): Promise<ClientResult<OAuthClientInformation>>;
    /** `POST /oauth2/create-client`: a client owned by the signed-in user. */
    createClient(body: Record<string, unknown> & { redirect_uris?: string[] }): Promise<ClientResult<OAuthClientInformation>>;
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
      register: (body) => call<OAuthClientInformation>("/oauth2/register", { method: "POST", body }),
      createClient: (body) => call<OAuthClientInformation>("/oauth2/create-client", { method: "POST", body }),
    },
  }),
});
