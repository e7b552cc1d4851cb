import { oauthError } from "./oauth-error.js";
import { quoted } from "./echo.js";

const LOOPBACK_IP = /^(127(?:\.\d{1,3}){3}|\[::1\]|::1)$/;
const isLoopbackName = (hostname: string): boolean => LOOPBACK_IP.test(hostname) || hostname === "localhost";

/**
 * The URI with the port of an `http` loopback authority removed; the URI itself when it has no
 * port; undefined for anything else. RFC 8252 §7.3: native apps listen on an ephemeral port, so
 * only the port may differ from the registered loopback URI.
 */
function withoutLoopbackPort(uri: string): string | undefined {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return undefined;
  }
  if (url.protocol !== "http:" || !isLoopbackName(url.hostname)) return undefined;
  const start = uri.indexOf("://") + 3;
  const rest = uri.slice(start).search(/[/?#]/u);
  const end = rest >= 0 ? start + rest : uri.length;
  const authority = uri.slice(start, end);
  const portAt = authority.startsWith("[") ? authority.indexOf("]") + 1 : authority.lastIndexOf(":");
  if (portAt <= 0 || authority[portAt] !== ":") return uri;
  if (!/^\d*$/u.test(authority.slice(portAt + 1))) return undefined;
  return uri.slice(0, start + portAt) + uri.slice(end);
}

/**
 * The registered URI `requested` matches, or undefined. Exact string match (RFC 9700 §4.1.3),
 * except the port of an `http` loopback URI; a fragment or userinfo never matches.
 */
export function matchRedirectUri(registered: readonly string[] | null | undefined, requested: string | undefined): string | undefined {
  if (!registered || !requested) return undefined;
  let url: URL;
  try {
    url = new URL(requested);
  } catch {
    return undefined;
  }
  if (requested.includes("#") || url.username || url.password) return undefined;
  const loose = withoutLoopbackPort(requested);
  return registered.find((candidate) => candidate === requested || (loose !== undefined && withoutLoopbackPort(candidate) === loose));
}

const REVERSE_DOMAIN = /^[a-z](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+$/i;
const FORBIDDEN_SCHEMES = new Set(["file:", "ftp:", "mailto:", "javascript:", "data:", "vbscript:"]);

const invalid = (description: string) => oauthError("BAD_REQUEST", "invalid_redirect_uri", description);

/** The host of an `http:` URI as written (before URL normalisation turns `0x7f.1` into an IP). */
function rawHttpHost(uri: string): string | null {
  const authority = /^http:\/\/([^/?#]*)/i.exec(uri)?.[1];
  if (!authority) return null;
  const hostPort = authority.slice(authority.lastIndexOf("@") + 1);
  if (hostPort.startsWith("[")) {
    const close = hostPort.indexOf("]");
    return close < 0 ? null : hostPort.slice(0, close + 1).toLowerCase();
  }
  return (hostPort.split(":")[0] ?? "").toLowerCase();
}

/**
 * Spec rule 5 / RFC 8252: `web` clients need https on a non-loopback host; `native` clients may
 * use https on a public host, http on exactly `localhost`, `127.0.0.1` or `[::1]`, or a
 * reverse-domain private-use scheme (`com.example.app:/callback`). Throws `invalid_redirect_uri`.
 */
export function assertRegistrableRedirectUri(uri: string, applicationType: string): void {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    throw invalid(`redirect URI must be an absolute URI: ${quoted(uri)}`);
  }
  if (uri.includes("#") || url.username || url.password) throw invalid(`redirect URI must not include credentials or a fragment: ${quoted(uri)}`);
  if (/^localhost\.+$/i.test(url.hostname)) throw invalid(`redirect URI localhost must not include trailing dots: ${quoted(uri)}`);
  const loopback = isLoopbackName(url.hostname);
  if (applicationType === "web") {
    if (url.protocol !== "https:" || loopback) throw invalid(`web clients require https redirect URIs on non-loopback hosts: ${quoted(uri)}`);
    return;
  }
  if (url.protocol === "https:") {
    if (loopback) throw invalid(`native clients must not use https loopback redirect URIs: ${quoted(uri)}`);
    return;
  }
  if (url.protocol === "http:") {
    const host = rawHttpHost(uri);
    if (host !== "localhost" && host !== "127.0.0.1" && host !== "[::1]") {
      throw invalid(`native clients may use http only on the exact loopback hosts localhost, 127.0.0.1, or [::1]: ${quoted(uri)}`);
    }
    return;
  }
  const scheme = url.protocol.slice(0, -1);
  const rest = url.href.slice(url.protocol.length);
  const reverseDomain = url.host.length === 0 && rest.startsWith("/") && !rest.startsWith("//") && REVERSE_DOMAIN.test(scheme);
  if (FORBIDDEN_SCHEMES.has(url.protocol) || !reverseDomain) {
    throw invalid(
      `native private-use redirect URI schemes must be well-formed reverse-domain names, omit the naming authority, and must not use a reserved scheme: ${quoted(uri)}`,
    );
  }
}
