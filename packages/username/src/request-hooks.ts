import { APIError, getSessionFromRequest, type EndpointContext, type HookEntry } from "@latchkey/core";
import { USERNAME_ERROR_CODES } from "./error-codes.js";
import { findByUsername } from "./lookup.js";
import type { ResolvedUsernameOptions } from "./options.js";
import { displayUsernameAccepted, usernameProblem } from "./username-rules.js";

type Body = Record<string, unknown>;
const isBody = (value: unknown): value is Body => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Before `/sign-up/email` and `/update-user` (the routes where a client sends the fields): a
 * sign-up with only a valid `displayUsername` takes it as its username too; the username is
 * validated (400 with the rule's code), must be free (400 `USERNAME_IS_ALREADY_TAKEN`, unless
 * it is the caller's own) and, with `immutableUsername`, may not change once set; the display
 * username must pass its validator. A sign-up's display username defaults to its username.
 * Hooks run before the route's body validation, so a body that is not an object is left to it.
 */
export function usernameRequestHook(options: ResolvedUsernameOptions): HookEntry {
  return {
    matcher: ["/sign-up/email", "/update-user"],
    handler: async (ctx: EndpointContext) => {
      if (!isBody(ctx.body)) return;
      const body: Body = { ...ctx.body };
      assertTextFields(body, options);
      const signUp = ctx.path === "/sign-up/email";
      if (signUp && options.displayUsername && typeof body.displayUsername === "string" && body.username === undefined) {
        if (!(await usernameProblem(options, body.displayUsername))) body.username = body.displayUsername;
      }
      if (typeof body.username === "string") await checkUsername(ctx, options, body.username, signUp);
      if (options.displayUsername && typeof body.displayUsername === "string") {
        if (!(await displayUsernameAccepted(options, body.displayUsername))) {
          throw USERNAME_ERROR_CODES.fail("INVALID_DISPLAY_USERNAME", "BAD_REQUEST");
        }
      }
      if (signUp && options.displayUsername && body.username && !body.displayUsername) body.displayUsername = body.username;
      return { context: { body } };
    },
  };
}

async function checkUsername(ctx: EndpointContext, options: ResolvedUsernameOptions, username: string, signUp: boolean): Promise<void> {
  const problem = await usernameProblem(options, username);
  if (problem) throw USERNAME_ERROR_CODES.fail(problem, "BAD_REQUEST");
  const normalized = options.normalize(username);
  const session = signUp ? null : await getSessionFromRequest(ctx);
  if (!signUp && options.immutableUsername) {
    const current = session?.user.username;
    if (typeof current === "string" && current && current !== normalized) {
      throw USERNAME_ERROR_CODES.fail("USERNAME_IS_IMMUTABLE", "BAD_REQUEST");
    }
  }
  const owner = await findByUsername(ctx, normalized);
  if (owner && (signUp || !session || owner.id !== session.user.id)) {
    throw USERNAME_ERROR_CODES.fail("USERNAME_IS_ALREADY_TAKEN", "BAD_REQUEST");
  }
}

/** What describes a value in a validation message (never the value itself). */
const kindOf = (value: unknown): string => (Array.isArray(value) ? "array" : value === null ? "null" : typeof value);

/**
 * `username` and `displayUsername` must be text when present. Core stores additional fields
 * as sent, so a number would reach the database (the reference answers 500 here: row 97).
 */
function assertTextFields(body: Body, options: ResolvedUsernameOptions): void {
  const fields = options.displayUsername ? ["username", "displayUsername"] : ["username"];
  for (const field of fields) {
    const value = body[field];
    if (value === undefined || typeof value === "string") continue;
    const message = `[body.${field}] Invalid input: expected string, received ${kindOf(value)}`;
    throw new APIError(400, { message, code: "VALIDATION_ERROR" });
  }
}
