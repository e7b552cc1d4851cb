import { APIError, type StatusName } from "./api-error.js";

/**
 * A plugin's `errorCodes`: code → message. The index admits the non-enumerable `fail` of
 * `defineErrorCodes`; only string entries are codes.
 */
export interface PluginErrorCodes {
  readonly [code: string]: string | ((code: never, status: StatusName | number) => APIError);
}

/** A plugin's codes object, as `defineErrorCodes` returns it: the map itself plus a bound `fail`. */
export type ErrorCodes<C extends Record<string, string>> = Readonly<C> & {
  /** Builds the `APIError` to throw for one of these codes: `{ code, message }` with the given status. */
  readonly fail: (code: keyof C & string, status: StatusName | number) => APIError;
};

/**
 * Declares a plugin's error codes (code → message, word for word as the reference sends
 * them) and gives it a typed `fail`. The returned object is also what the plugin passes as
 * `errorCodes`: `fail` is not enumerable, so it never reaches `$ERROR_CODES`.
 *
 * @example
 * export const TWO_FACTOR_ERROR_CODES = defineErrorCodes({ INVALID_CODE: "Invalid code" });
 * throw TWO_FACTOR_ERROR_CODES.fail("INVALID_CODE", "UNAUTHORIZED");
 */
export function defineErrorCodes<const C extends Record<string, string>>(codes: C): ErrorCodes<C> {
  const out = { ...codes };
  Object.defineProperty(out, "fail", {
    enumerable: false,
    value: (code: keyof C & string, status: StatusName | number): APIError => APIError.from(status, code, codes[code]!),
  });
  return Object.freeze(out) as ErrorCodes<C>;
}
