import { oauthError } from "./error-codes.js";

/** RFC 8707 §2: an absolute URI without a fragment. */
const isResourceIndicator = (value: unknown): value is string =>
  typeof value === "string" && value !== "" && URL.canParse(value) && !value.includes("#");

/**
 * The `resource` member of a device authorization request as a list (RFC 8707 §2: it may
 * repeat): absent or `""` is none; one indicator or a non-empty list of them is taken as
 * given; anything else is 400 `invalid_target` "Invalid resource indicator", as the reference.
 */
export function resourceIndicators(value: unknown): string[] | undefined {
  if (value === undefined || value === "") return undefined;
  const list = Array.isArray(value) ? value : [value];
  if (!list.length || !list.every(isResourceIndicator)) throw oauthError("BAD_REQUEST", "invalid_target", "Invalid resource indicator");
  return [...new Set(list)];
}
