import type { LatchkeyPlugin } from "@latchkey/core";
import { usernameDatabaseHooks } from "./database-hooks.js";
import { USERNAME_ERROR_CODES } from "./error-codes.js";
import { resolveUsernameOptions, type ResolvedUsernameOptions, type UsernameOptions } from "./options.js";
import { usernameRequestHook } from "./request-hooks.js";
import { isUsernameAvailable } from "./routes/is-username-available.js";
import { signInUsername } from "./routes/sign-in-username.js";
import { usernameSchema } from "./schema.js";

export { USERNAME_ERROR_CODES } from "./error-codes.js";
export type { UsernameOptions, ValidationStage } from "./options.js";

const makeEndpoints = (options: ResolvedUsernameOptions) => ({
  signInUsername: signInUsername(options),
  isUsernameAvailable: isUsernameAvailable(options),
});

/** The plugin object `username()` returns. */
export interface UsernamePlugin extends LatchkeyPlugin<"username", ReturnType<typeof makeEndpoints>> {
  id: "username";
  options: UsernameOptions | undefined;
}

/**
 * Usernames: sign in with one (`/sign-in/username`), check one is free, and set one at sign-up
 * or through `/update-user`. Stored normalised in `user.username` (unique) beside the name as
 * written in `user.displayUsername`.
 *
 * @example
 * const auth = createAuth({ ...options, plugins: [username({ minUsernameLength: 4 })] });
 */
export function username(options?: UsernameOptions): UsernamePlugin {
  const resolved = resolveUsernameOptions(options);
  return {
    id: "username",
    endpoints: makeEndpoints(resolved),
    schema: usernameSchema(resolved),
    hooks: { before: [usernameRequestHook(resolved)] },
    databaseHooks: usernameDatabaseHooks(resolved),
    errorCodes: USERNAME_ERROR_CODES,
    options,
  };
}
