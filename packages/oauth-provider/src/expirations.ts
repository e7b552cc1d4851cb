import { durationSeconds, expirationClaim } from "@latchkey/jwt";
import type { OAuthOptions, ResolvedOAuthOptions } from "./options.js";

/** A moment as the reference takes it: a number is already `exp` seconds, a `Date` one, a duration (`"5m"`) counts from `iat`. */
export type Expiration = number | string | Date;

/** Start-up check: a duration that does not parse is a `TypeError`, not a failed request. */
export function checkExpirations(options: OAuthOptions): void {
  const given: Array<[string, unknown]> = [
    ...Object.entries(options.scopeExpirations ?? {}).map(([scope, value]): [string, unknown] => [`scopeExpirations.${scope}`, value]),
    ["clientRegistrationClientSecretExpiration", options.clientRegistrationClientSecretExpiration],
  ];
  for (const [name, value] of given) {
    if (value === undefined || typeof value === "number" || value instanceof Date) continue;
    if (typeof value !== "string") throw new TypeError(`oauthProvider: ${name} must be a number, a Date or a duration`);
    try {
      durationSeconds(value);
    } catch {
      throw new TypeError(`oauthProvider: ${name} is not a duration ("5m", "1 hour")`);
    }
  }
}

/**
 * `exp` of an access token: the default lifetime, shortened to the earliest `scopeExpirations`
 * entry among the granted scopes (the reference's rule; a number is an absolute `exp`).
 */
export function accessTokenExpiry(options: ResolvedOAuthOptions, scopes: string[], iat: number, fallback: number): number {
  const table = options.scopeExpirations;
  if (!table) return fallback;
  return scopes.reduce((earliest, scope) => {
    const value = table[scope];
    return value === undefined ? earliest : Math.min(earliest, expirationClaim(value, iat));
  }, fallback);
}

/** RFC 7591 §3.2.1 `client_secret_expires_at` of a dynamic registration (advertised only, as the reference: no column holds it). */
export function secretExpiresAt(options: ResolvedOAuthOptions, iat: number): number {
  const value = options.clientRegistrationClientSecretExpiration;
  return value === undefined ? 0 : expirationClaim(value, iat);
}
