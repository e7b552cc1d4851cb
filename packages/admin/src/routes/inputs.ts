import * as v from "valibot";

/**
 * A user id as the reference takes it: a string, or a number it turns into one (the
 * reference coerces any value; other kinds are refused here with 400 `VALIDATION_ERROR`).
 */
export const userId = v.pipe(v.union([v.string(), v.number()]), v.transform(String));

/** A role name or a list of them. */
export const roleValue = v.union([v.string(), v.array(v.string())]);

/** `{ userId }`, the body of most admin routes. */
export const userIdBody = v.object({ userId });
