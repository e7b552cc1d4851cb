import type { LatchkeyPlugin } from "@latchkey/core";
import { resolveOneTimeTokenOptions, type OneTimeTokenOptions, type ResolvedOneTimeTokenOptions } from "./options.js";
import { ottHeaderHook } from "./ott-header-hook.js";
import { generateOneTimeToken } from "./routes/generate.js";
import { verifyOneTimeToken } from "./routes/verify.js";

export { ONE_TIME_TOKEN_MESSAGES } from "./error-codes.js";
export type { OneTimeTokenOptions, StoreTokenOption } from "./options.js";

const makeEndpoints = (options: ResolvedOneTimeTokenOptions) => ({
  generateOneTimeToken: generateOneTimeToken(options),
  verifyOneTimeToken: verifyOneTimeToken(options),
});

/** The plugin object `oneTimeToken()` returns. */
export interface OneTimeTokenPlugin extends LatchkeyPlugin<"one-time-token", ReturnType<typeof makeEndpoints>> {
  id: "one-time-token";
  options: OneTimeTokenOptions | undefined;
}

/**
 * Short-lived single-use tokens for a session: a signed-in client asks for one and hands it to
 * another client (a native app, another domain), which redeems it once for the same session.
 *
 * @example
 * const auth = createAuth({ ...options, plugins: [oneTimeToken({ expiresIn: 5, storeToken: "hashed" })] });
 */
export function oneTimeToken(options?: OneTimeTokenOptions): OneTimeTokenPlugin {
  const resolved = resolveOneTimeTokenOptions(options);
  return {
    id: "one-time-token",
    endpoints: makeEndpoints(resolved),
    hooks: { after: [ottHeaderHook(resolved)] },
    options,
  };
}
