/**
 * SSRF guard for URLs a client supplies and the provider fetches (a client's `jwks_uri`):
 * literal private, loopback, link-local and reserved hosts are refused unless the operator
 * named the host in `privateHostAllowList` (development, tests on 127.0.0.1).
 */

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

function privateIPv4(host: string): boolean {
  const match = IPV4.exec(host);
  if (!match) return false;
  const [a, b] = [Number(match[1]), Number(match[2])];
  return (
    a === 0 || a === 10 || a === 127 || a >= 224 ||
    (a === 100 && b >= 64 && b <= 127) || // carrier-grade NAT
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 192 && b === 0) ||
    (a === 198 && (b === 18 || b === 19))
  );
}

function privateIPv6(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, "").toLowerCase();
  if (!bare.includes(":")) return false;
  if (bare === "::" || bare === "::1") return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(bare);
  if (mapped) return privateIPv4(mapped[1]!);
  if (/^::ffff:[0-9a-f]{1,4}:[0-9a-f]{1,4}$/.test(bare)) return true; // mapped IPv4 in hex: refuse
  return /^(fc|fd|fe[89ab]|ff)/.test(bare) || bare.startsWith("64:ff9b:") || bare.startsWith("2001:db8:");
}

/** Whether a URL hostname is a private, loopback or reserved address or a local name. */
export function isPrivateHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  if (host === "localhost" || host.endsWith(".localhost") || host.endsWith(".local") || host.endsWith(".internal")) return true;
  return privateIPv4(host) || privateIPv6(host);
}

/** Whether `url`'s host (`host` or `host:port`) is on the operator's allow-list. */
export function allowListed(url: URL, allowList: readonly string[] | undefined): boolean {
  if (!allowList?.length) return false;
  const names = new Set(allowList.map((entry) => entry.toLowerCase()));
  return names.has(url.host.toLowerCase()) || names.has(url.hostname.toLowerCase());
}

/**
 * Why a client-supplied fetch target is refused, or null: https only (http only for an
 * allow-listed host), no credentials, no fragment, no private host unless allow-listed.
 */
export function outboundUrlProblem(raw: string, member: string, allowList: readonly string[] | undefined): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return `${member} must be a valid URL`;
  }
  const listed = allowListed(url, allowList);
  if (url.protocol !== "https:" && !(listed && url.protocol === "http:")) return `${member} must use HTTPS`;
  if (url.username || url.password) return `${member} must not contain credentials`;
  if (raw.includes("#")) return `${member} must not include a fragment component`;
  if (!listed && isPrivateHost(url.hostname)) return `${member} must not point to a private or reserved address`;
  return null;
}
