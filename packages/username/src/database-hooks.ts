import type { DatabaseHookContext, DatabaseHooks, Row } from "@latchkey/core";
import { USERNAME_ERROR_CODES } from "./error-codes.js";
import { findByUsername } from "./lookup.js";
import type { ResolvedUsernameOptions } from "./options.js";
import { displayUsernameAccepted, usernameProblem } from "./username-rules.js";

/** Routes whose request hook already validated the fields (see request-hooks.ts). */
const CHECKED_BY_REQUEST_HOOK = new Set(["/sign-up/email", "/update-user"]);

/**
 * Every user write, whatever made it (a route of another plugin, `auth.api`, server code):
 * the username is stored normalised and the display username by its normaliser. Writes not
 * already checked by the request hook are validated here: rules, uniqueness (another user's
 * name is refused) and the display-name validator, all 400 with the plugin's codes.
 */
export function usernameDatabaseHooks(options: ResolvedUsernameOptions): DatabaseHooks {
  const prepare = async (data: Row, ctx: DatabaseHookContext, create: boolean): Promise<{ data: Row }> => {
    const out: Row = { ...data };
    const username = typeof data.username === "string" && data.username ? data.username : null;
    const display = typeof data.displayUsername === "string" && data.displayUsername ? data.displayUsername : null;
    if (username) {
      if (!(ctx && CHECKED_BY_REQUEST_HOOK.has(ctx.path))) {
        const ownId = ctx?.context.session?.user.id ?? (typeof data.id === "string" ? data.id : undefined);
        await validateWrite(options, ctx, username, display, create ? undefined : ownId);
      }
      out.username = options.normalize(username);
      // A new user's display name defaults to the username as sent (reference).
      if (options.displayUsername && (display || create)) out.displayUsername = display ? options.normalizeDisplay(display) : username;
    } else if (options.displayUsername && display) {
      out.displayUsername = options.normalizeDisplay(display);
    }
    return { data: out };
  };
  return {
    user: {
      create: { before: (data, ctx) => prepare(data, ctx, true) },
      update: { before: (data, ctx) => prepare(data, ctx, false) },
    },
  };
}

async function validateWrite(
  options: ResolvedUsernameOptions,
  ctx: DatabaseHookContext,
  username: string,
  display: string | null,
  ownId: string | undefined,
): Promise<void> {
  const problem = await usernameProblem(options, username);
  if (problem) throw USERNAME_ERROR_CODES.fail(problem, "BAD_REQUEST");
  if (ctx) {
    const owner = await findByUsername(ctx, options.normalize(username));
    if (owner && owner.id !== ownId) throw USERNAME_ERROR_CODES.fail("USERNAME_IS_ALREADY_TAKEN", "BAD_REQUEST");
  }
  if (display && options.displayUsername && !(await displayUsernameAccepted(options, display))) {
    throw USERNAME_ERROR_CODES.fail("INVALID_DISPLAY_USERNAME", "BAD_REQUEST");
  }
}
