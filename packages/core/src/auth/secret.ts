import type { LatchkeyOptions } from "../options.js";
import type { Logger } from "../logger.js";
import { env, isProduction, isTest } from "../env.js";
import { BetterAuthError } from "../errors/api-error.js";

/** The reference's development default; refused in production. */
export const DEFAULT_SECRET = "better-auth-secret-12345678901234567890";

/** The signing secret: option, then `BETTER_AUTH_SECRET`, then `AUTH_SECRET`, then the dev default. */
export function resolveSecret(options: LatchkeyOptions, logger: Logger): string {
  const secret = options.secret ?? env("BETTER_AUTH_SECRET") ?? env("AUTH_SECRET") ?? DEFAULT_SECRET;
  if (secret === DEFAULT_SECRET) {
    if (isProduction()) {
      throw new BetterAuthError("You are using the default secret. Set `secret` or BETTER_AUTH_SECRET in production.");
    }
    if (!isTest()) logger.warn("Using the default secret: set `secret` or BETTER_AUTH_SECRET before deploying.");
  } else if (secret.length < 32 && !isTest()) {
    logger.warn("The secret is shorter than 32 characters; use a long random value.");
  }
  return secret;
}
