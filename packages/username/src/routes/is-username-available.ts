import { endpoint } from "@latchkey/core";
import * as v from "valibot";
import { USERNAME_ERROR_CODES } from "../error-codes.js";
import { findByUsername } from "../lookup.js";
import type { ResolvedUsernameOptions } from "../options.js";
import { usernameProblem } from "../username-rules.js";

const body = v.object({ username: v.string() });

/**
 * `POST /is-username-available` `{ username }`: `{ available }`, whether no user holds the
 * normalised name. A name the rules refuse is 422 with the rule's code (an empty one
 * `INVALID_USERNAME`), so a client learns it could never be taken.
 */
export const isUsernameAvailable = (options: ResolvedUsernameOptions) =>
  endpoint("/is-username-available", { method: "POST", body }, async (ctx) => {
    const { username } = ctx.body;
    if (!username) throw USERNAME_ERROR_CODES.fail("INVALID_USERNAME", "UNPROCESSABLE_ENTITY");
    const problem = await usernameProblem(options, username);
    if (problem) throw USERNAME_ERROR_CODES.fail(problem, "UNPROCESSABLE_ENTITY");
    return { available: !(await findByUsername(ctx, options.normalize(username))) };
  });
