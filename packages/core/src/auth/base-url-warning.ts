import type { Logger } from "../logger.js";
import type { LatchkeyOptions } from "../options.js";
import { isDynamicBaseURL } from "./dynamic-base.js";

/** The start-up warning logged when no base URL is configured; one line, no configuration values. */
export const MISSING_BASE_URL_WARNING =
  "No baseURL is configured (option or BETTER_AUTH_URL): links in emails (password reset, " +
  "email verification, ...) are built from each request's Host header, so a request with a " +
  "forged Host can have a password-reset link point at another host. Set `baseURL` " +
  "(or BETTER_AUTH_URL), or `baseURL: { allowedHosts: [...] }` for several hosts.";

/**
 * Warns once, at `createAuth`, when the base URL comes from nowhere but the request. The
 * request's origin follows its Host header, which the client chooses: a reset link mailed
 * to a victim could then carry the token to an attacker's host (host header injection).
 * A dynamic base URL is safe: it only accepts hosts on its `allowedHosts` list.
 */
export function warnWithoutBaseURL(
  options: LatchkeyOptions,
  configuredBase: string | undefined,
  logger: Logger,
): void {
  if (configuredBase || isDynamicBaseURL(options.baseURL)) return;
  logger.warn(MISSING_BASE_URL_WARNING);
}
