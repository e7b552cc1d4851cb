import type { LatchkeyPlugin } from "@latchkey/core";
import { lastLoginCookieHook } from "./cookie-hook.js";
import { lastLoginMethodDatabaseHooks, lastLoginMethodSchema } from "./database.js";
import {
  resolveLastLoginMethodOptions,
  type LastLoginMethodOptions,
  type ResolvedLastLoginMethodOptions,
} from "./options.js";

export { DEFAULT_COOKIE_NAME, DEFAULT_MAX_AGE, type LastLoginMethodOptions } from "./options.js";
export { defaultLoginMethod } from "./resolve-method.js";

/** The plugin object `lastLoginMethod()` returns. */
export interface LastLoginMethodPlugin extends LatchkeyPlugin<"last-login-method"> {
  id: "last-login-method";
  options: ResolvedLastLoginMethodOptions;
}

/**
 * Remembers how each user last signed in: a script-readable cookie on every response that
 * starts a session, and with `storeInDatabase` the `user.lastLoginMethod` column. Adds no
 * routes.
 *
 * @example
 * const auth = createAuth({ ...options, plugins: [lastLoginMethod({ storeInDatabase: true })] });
 */
export function lastLoginMethod(options?: LastLoginMethodOptions): LastLoginMethodPlugin {
  const resolved = resolveLastLoginMethodOptions(options);
  const schema = lastLoginMethodSchema(resolved);
  const databaseHooks = lastLoginMethodDatabaseHooks(resolved);
  return {
    id: "last-login-method",
    hooks: { after: [lastLoginCookieHook(resolved)] },
    ...(schema ? { schema } : {}),
    ...(databaseHooks ? { databaseHooks } : {}),
    options: resolved,
  };
}
