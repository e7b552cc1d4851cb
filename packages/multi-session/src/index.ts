import type { LatchkeyPlugin } from "@latchkey/core";
import { MULTI_SESSION_ERROR_CODES } from "./error-codes.js";
import { newSessionHook } from "./new-session-hook.js";
import { resolveMultiSessionOptions, type MultiSessionOptions, type ResolvedMultiSessionOptions } from "./options.js";
import { listDeviceSessions } from "./routes/list-device-sessions.js";
import { revokeDeviceSession } from "./routes/revoke.js";
import { setActiveSession } from "./routes/set-active.js";
import { signOutHook } from "./sign-out-hook.js";

export { MULTI_SESSION_ERROR_CODES, MULTI_SESSION_ERROR_CODES as ERROR_CODES } from "./error-codes.js";
export type { MultiSessionOptions } from "./options.js";

const endpoints = { listDeviceSessions, setActiveSession, revokeDeviceSession };

/** The plugin object `multiSession()` returns. */
export interface MultiSessionPlugin extends LatchkeyPlugin<"multi-session", typeof endpoints> {
  id: "multi-session";
  options: ResolvedMultiSessionOptions;
}

/**
 * Several signed-in accounts in one browser: each new session is remembered in a signed
 * `<session cookie>_multi-<token>` cookie, and the routes list, switch and revoke them.
 *
 * @example
 * const auth = createAuth({ ...options, plugins: [multiSession({ maximumSessions: 3 })] });
 */
export function multiSession(options?: MultiSessionOptions): MultiSessionPlugin {
  const resolved = resolveMultiSessionOptions(options);
  return {
    id: "multi-session",
    endpoints,
    hooks: { after: [newSessionHook(resolved), signOutHook] },
    errorCodes: MULTI_SESSION_ERROR_CODES,
    options: resolved,
  };
}
