/**
 * The redirect URI a provider's IdP sends users back to: the `redirectURI` option (a path
 * under the base URL, or a full URL) when set, else `<baseURL>/sso/callback/<providerId>`.
 */
export function providerRedirectURI(baseURL: string, providerId: string, shared: string | undefined): string {
  if (!shared) return `${baseURL}/sso/callback/${encodeURIComponent(providerId)}`;
  if (/^https?:\/\//i.test(shared)) return shared;
  return `${baseURL}${shared.startsWith("/") ? "" : "/"}${shared}`;
}
