import * as v from "valibot";

/**
 * The longest number accepted: the width of the unique `user.phoneNumber` column on MySQL and
 * MariaDB (VARCHAR(191)). Longer input is refused with 400 before anything is stored or sent,
 * on every database (the reference takes any length).
 */
export const MAX_PHONE_NUMBER_LENGTH = 191;

/** A `phoneNumber` body field. */
export const phoneField = () => v.pipe(v.string(), v.maxLength(MAX_PHONE_NUMBER_LENGTH));
