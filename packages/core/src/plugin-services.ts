import type { AuthContext } from "./context.js";
import { BetterAuthError } from "./errors/api-error.js";

/**
 * A typed name for a value a plugin publishes on the context (jwt's signer, bearer's token
 * policy). The provider and every reader share the key object, so both sides agree on the
 * type without a cast.
 */
export interface ServiceKey<T> {
  readonly id: string;
  /** Type-level only. */
  readonly __type?: T;
}

/** One service a plugin publishes: its key and value. */
export interface ServiceProvision {
  readonly key: ServiceKey<unknown>;
  readonly value: unknown;
}

/**
 * Declares a service key.
 *
 * @example
 * export const JWT_SIGNER = serviceKey<JwtSigner>("jwt.signer");
 */
export const serviceKey = <T>(id: string): ServiceKey<T> => ({ id });

/** Pairs a key with its value for a plugin's `init` result (`{ services: [provide(KEY, value)] }`). */
export const provide = <T>(key: ServiceKey<T>, value: T): ServiceProvision => ({ key, value });

/** The service published under `key`, or undefined when no installed plugin publishes it. */
export function findService<T>(ctx: Pick<AuthContext, "services">, key: ServiceKey<T>): T | undefined {
  return ctx.services.get(key.id) as T | undefined;
}

/** The service published under `key`; a missing one is a programmer error (declare it in `requires`). */
export function getService<T>(ctx: Pick<AuthContext, "services">, key: ServiceKey<T>): T {
  if (!ctx.services.has(key.id)) {
    throw new BetterAuthError(`No installed plugin publishes the service "${key.id}".`);
  }
  return ctx.services.get(key.id) as T;
}
