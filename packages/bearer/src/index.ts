import type { LatchkeyPlugin } from "@latchkey/core";
import { resolveBearerOptions, type BearerOptions } from "./options.js";
import { setAuthTokenHook } from "./set-auth-token.js";

export type { BearerOptions } from "./options.js";
export { SET_AUTH_TOKEN_HEADER } from "./set-auth-token.js";

/** The plugin object `bearer()` returns. */
export interface BearerPlugin extends LatchkeyPlugin {
  id: "bearer";
  options: BearerOptions;
}

/**
 * Sends the signed session token in a `set-auth-token` response header whenever a response
 * sets the session cookie, for clients that keep no cookies. Reading
 * `Authorization: Bearer <token>` needs no plugin: core does it.
 *
 * @example
 * const auth = createAuth({ ...options, plugins: [bearer()] });
 */
export function bearer(options?: BearerOptions): BearerPlugin {
  const resolved = resolveBearerOptions(options);
  return {
    id: "bearer",
    hooks: { after: [setAuthTokenHook] },
    init: () => (resolved.requireSignature ? { context: { requireSignedBearer: true } } : undefined),
    options: resolved,
  };
}
