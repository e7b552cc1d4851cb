import type { ResolvedUsernameOptions } from "./options.js";
import type { UsernameErrorCode } from "./error-codes.js";

/**
 * What is wrong with a username, or null: too short, too long, refused by the validator. The
 * rules see the name as sent, or normalised with `validationOrder.username: "post-normalization"`.
 */
export async function usernameProblem(options: ResolvedUsernameOptions, username: string): Promise<UsernameErrorCode | null> {
  const checked = options.validateNormalizedUsername ? options.normalize(username) : username;
  if (checked.length < options.minLength) return "USERNAME_TOO_SHORT";
  if (checked.length > options.maxLength) return "USERNAME_TOO_LONG";
  if (!(await options.validate(checked))) return "INVALID_USERNAME";
  return null;
}

/** Whether `displayUsernameValidator` (if any) accepts the display name, in the configured form. */
export async function displayUsernameAccepted(options: ResolvedUsernameOptions, displayUsername: string): Promise<boolean> {
  if (!options.validateDisplay) return true;
  const checked = options.validateNormalizedDisplay ? options.normalizeDisplay(displayUsername) : displayUsername;
  return options.validateDisplay(checked);
}
