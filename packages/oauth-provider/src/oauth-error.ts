import { APIError, type StatusName } from "@latchkey/core";

/** RFC 6749 §5.1 / spec rule 9: answers that carry credentials, errors included, are never cached. */
export const NO_STORE = { "Cache-Control": "no-store", Pragma: "no-cache" } as const;

/**
 * An OAuth error answer: `{ error, error_description }` (RFC 6749 §5.2). The description is
 * public text; it never carries a token, a secret or a submitted value.
 */
export function oauthError(
  status: StatusName,
  error: string,
  description: string | undefined,
  headers?: Record<string, string>,
): APIError {
  return new APIError(status, description === undefined ? { error } : { error, error_description: description }, headers);
}

/** The same error with `Cache-Control: no-store` (token, registration and client routes). */
export function noStoreError(
  status: StatusName,
  error: string,
  description: string,
  headers?: Record<string, string>,
): APIError {
  return oauthError(status, error, description, { ...NO_STORE, ...headers });
}

/** Re-throws an `APIError` with the no-store headers added (spec rule 9: errors included). */
export function withNoStore(error: unknown): unknown {
  if (!(error instanceof APIError)) return error;
  for (const [name, value] of Object.entries(NO_STORE)) if (!error.headers.has(name)) error.headers.set(name, value);
  return error;
}
