/**
 * `verification_uri` and `verification_uri_complete` (RFC 8628 §3.2): the configured URI, or
 * `/device`; a relative one is resolved against the base URL's origin, as the reference does
 * (`/device` under `http://host/api/auth` is `http://host/device`).
 */
export function verificationUris(configured: string | undefined, baseURL: string, userCode: string): { uri: string; complete: string } {
  const given = configured || "/device";
  const url = absoluteURL(given) ?? new URL(given, baseURL);
  const complete = new URL(url);
  complete.searchParams.set("user_code", userCode);
  return { uri: url.toString(), complete: complete.toString() };
}

/** `value` as a URL when it is absolute on its own, else undefined. */
function absoluteURL(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}
