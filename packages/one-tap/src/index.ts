import type { LatchkeyPlugin } from "@latchkey/core";
import { googleTokenVerifier } from "./google-id-token.js";
import { resolveOneTapOptions, type OneTapOptions, type ResolvedOneTapOptions } from "./options.js";
import { oneTapCallback } from "./routes/callback.js";

export { ONE_TAP_ERROR_MESSAGES } from "./error-codes.js";
export { GOOGLE_ISSUERS, GOOGLE_JWKS_URL, type OneTapOptions } from "./options.js";

/** The plugin object `oneTap()` returns. */
export interface OneTapPlugin extends LatchkeyPlugin<"one-tap", { oneTapCallback: ReturnType<typeof oneTapCallback> }> {
  id: "one-tap";
  options: ResolvedOneTapOptions;
}

/**
 * Sign-in with Google One Tap: `POST /one-tap/callback` takes the ID token Google's prompt
 * gives the page, verifies it against Google's keys, and signs the user in (or links, or
 * creates) as a `google` account.
 *
 * @example
 * const auth = createAuth({
 *   ...options,
 *   socialProviders: { google: { clientId, clientSecret } },
 *   plugins: [oneTap()],
 * });
 */
export function oneTap(options?: OneTapOptions): OneTapPlugin {
  const resolved = resolveOneTapOptions(options);
  const verifier = googleTokenVerifier(resolved.jwksURL, resolved.issuer);
  return {
    id: "one-tap",
    endpoints: { oneTapCallback: oneTapCallback(resolved, verifier) },
    options: resolved,
  };
}
