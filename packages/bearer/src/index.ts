import { BEARER_TOKEN_POLICY, provide, type LatchkeyPlugin } from "@latchkey/core";
import { resolveBearerOptions, type BearerOptions } from "./options.js";
import { setAuthTokenHook } from "./set-auth-token.js";

export type { BearerOptions } from "./options.js";
export { SET_AUTH_TOKEN_HEADER } from "./set-auth-token.js";

/** The plugin object `bearer()` returns. */
export interface BearerPlugin extends LatchkeyPlugin<"bearer"> {
  id: "bearer";
  options: BearerOptions;
}

/**
 * Sends the signed session token in a `set-auth-token` response header whenever a response
 * sets the session cookie, for clients that keep no cookies, and lets `Authorization: Bearer`
 * carry the bare session token too, as the reference does (unless `requireSignature`).
 * Without this plugin core reads only the signed `token.sig` form.
 *
 * @example
 * const auth = createAuth({ ...options, plugins: [bearer()] });
 */
export function bearer(options?: BearerOptions): BearerPlugin {
  const resolved = resolveBearerOptions(options);
  return {
    id: "bearer",
    hooks: { after: [setAuthTokenHook] },
    init: () => ({ services: [provide(BEARER_TOKEN_POLICY, { acceptUnsigned: !resolved.requireSignature })] }),
    options: resolved,
  };
}
