import type { AuthContext } from "../context.js";
import { APIError, BetterAuthError, STATUS } from "../errors/api-error.js";
import { CORE_ROUTE_ERROR_CODES } from "../errors/codes.js";
import type { Endpoint } from "./endpoint.js";

/** Errors the application's own callbacks raised: their codes are the application's to choose. */
const applicationErrors = new WeakSet<APIError>();

/** Marks an error thrown by application code (hooks, callbacks), which may use codes of its own. */
export function markApplicationError(error: unknown): unknown {
  if (error instanceof APIError) applicationErrors.add(error);
  return error;
}

/** Runs an application callback; an `APIError` it throws keeps its code unchecked. */
export async function applicationCall<T>(fn: () => T | Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw markApplicationError(error);
  }
}

/** Codes that name an HTTP status rather than a condition (`{ code: "UNAUTHORIZED" }`): always declared. */
const STATUS_CODES = new Set<string>(Object.keys(STATUS));

/**
 * Development and test mode only: an endpoint answering with an error `code` that neither
 * core nor an installed plugin declares is a programmer error (clients match on codes, and
 * `$ERROR_CODES` must list every one). It becomes a logged 500, so a test that reaches it fails.
 * Codes the application's own hooks and callbacks throw are theirs to choose and pass.
 */
export function assertDeclaredCode(error: APIError, auth: AuthContext, endpoint: Endpoint): void {
  const code = error.body?.code;
  if (typeof code !== "string" || !auth.checkErrorCodes || applicationErrors.has(error)) return;
  if (STATUS_CODES.has(code) || CORE_ROUTE_ERROR_CODES.has(code) || Object.hasOwn(auth.errorCodes, code)) return;
  throw new BetterAuthError(`Endpoint ${endpoint.path} answered with the undeclared error code "${code}".`);
}

/**
 * A copy of `callbacks` whose functions (the named ones, or every function when `names` is
 * left out) run through {@link applicationCall}: for plugins handed an object of application
 * hooks or senders, wrapped once when the plugin is built instead of at every call site.
 */
export function applicationCallbacks<T extends object>(callbacks: T, names?: readonly (keyof T)[]): T {
  const copy = { ...callbacks };
  for (const name of names ?? (Object.keys(copy) as (keyof T)[])) {
    const fn = copy[name];
    if (typeof fn !== "function") continue;
    copy[name] = ((...args: unknown[]) => applicationCall(() => fn.apply(callbacks, args))) as T[keyof T];
  }
  return copy;
}
