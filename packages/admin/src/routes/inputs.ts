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

/**
 * One of `options`, refused with the reference's (zod) wording: `Invalid option: expected one
 * of "a"|"b"` (core renders a valibot picklist as "expected enum").
 */
export function oneOf<const T extends readonly string[]>(options: T) {
  const message = `Invalid option: expected one of ${options.map((o) => JSON.stringify(o)).join("|")}`;
  return v.pipe(
    v.string(),
    v.check((value) => options.includes(value), message),
    v.transform((value) => value as T[number]),
  );
}
