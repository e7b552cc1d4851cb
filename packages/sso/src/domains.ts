/** A host name as a provider's domain list may name it: letters, digits, hyphens, dots. */
const HOSTNAME =
  /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

/** The host of one entry (`acme.com`, or a URL-shaped `https://acme.com/x`), lower case; null when it has none. */
function hostOf(entry: string): string | null {
  let host = entry.trim().toLowerCase();
  const scheme = host.indexOf("://");
  if (scheme !== -1) host = host.slice(scheme + 3);
  host = host.split(/[/?#]/, 1)[0] ?? "";
  host = host.replace(/:\d+$/, "").replace(/\.$/, "");
  return HOSTNAME.test(host) ? host : null;
}

/**
 * The distinct domains of a provider's comma-separated `domain` value (the reference's
 * `parseProviderDomains`): null when the list is empty or an entry names no host.
 */
export function parseProviderDomains(list: string): string[] | null {
  const entries = list
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.length === 0) return null;
  const domains = new Set<string>();
  for (const entry of entries) {
    const host = hostOf(entry);
    if (!host) return null;
    domains.add(host);
  }
  return [...domains];
}

/** Whether the email's domain is one of the provider's domains or a subdomain of one. */
export function emailInDomains(email: string, list: string): boolean {
  const at = email.lastIndexOf("@");
  const domain =
    at === -1
      ? ""
      : email
          .slice(at + 1)
          .trim()
          .toLowerCase();
  const domains = parseProviderDomains(list);
  if (!domain || !domains) return false;
  return domains.some((d) => domain === d || domain.endsWith(`.${d}`));
}
