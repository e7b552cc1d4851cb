import { generateRandomString } from "../crypto/random.js";

/**
 * A delete-account token: 32 characters of 0-9 a-z (~165 bits), the reference's format, so
 * a link mailed by either implementation is redeemed by the other.
 */
export const createDeleteToken = (): string => generateRandomString(32, "0-9", "a-z");

/** The verification row identifier of a delete-account token (hyphen, no colon; value: the user id). */
export const deleteIdentifier = (token: string): string => `delete-account-${token}`;
