import type { GenericOAuthConfig } from "./options.js";

/**
 * The provider's logout URL for `/sign-out` (OpenID Connect RP-Initiated Logout 1.0 §2), or
 * null when the provider has no end-session endpoint or logout is disabled. The stored ID
 * token is sent as `id_token_hint`. With a post-logout redirect URI, `client_id` goes along
 * so the provider can check the URI against that client's registration (§2, §3); `state`
 * travels only then, since it is returned only on that redirect. Without either, `client_id`
 * tells the provider which client asks.
 */
export function endSessionURL(
  c: GenericOAuthConfig,
  endpoint: string | undefined,
  baseURL: string,
  data: { idToken?: string | null; postLogoutRedirectURI?: string; state?: string },
): URL | null {
  if (c.disableProviderLogout || !endpoint) return null;
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return null;
  }
  if (data.idToken) url.searchParams.set("id_token_hint", data.idToken);
  const target = data.postLogoutRedirectURI ?? c.postLogoutRedirectURI;
  if (target) {
    url.searchParams.set("post_logout_redirect_uri", new URL(target, baseURL).href);
    url.searchParams.set("client_id", c.clientId);
    if (data.state) url.searchParams.set("state", data.state);
  } else if (!data.idToken) {
    url.searchParams.set("client_id", c.clientId);
  }
  return url;
}
