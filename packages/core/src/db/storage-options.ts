import type { Logger } from "../logger.js";
import type { LatchkeyOptions } from "../options.js";
import type { ResolvedSchema } from "./field.js";
import type { SecondaryStorage } from "./secondary-storage.js";

/** How one verification identifier is stored: as given, SHA-256 base64url, or your own hash. */
export type StoreIdentifierOption = "plain" | "hashed" | { hash: (identifier: string) => Promise<string> };

/** `verification.storeIdentifier`: one option, or a default with per-prefix overrides. */
export type StoreIdentifierConfig =
  | StoreIdentifierOption
  | { default: StoreIdentifierOption; overrides?: Record<string, StoreIdentifierOption> };

/** `session` options about where sessions live when `secondaryStorage` is set. */
export interface SessionStorageOptions {
  /**
   * Also write sessions to the database. Reads still try the secondary storage first and fall
   * back to the database when the key is missing.
   * @default false
   */
  storeSessionInDatabase?: boolean;
  /**
   * With `storeSessionInDatabase`, a revoked session's row is kept (its `expiresAt` set to now,
   * delete hooks still run) instead of deleted, and reads no longer fall back to the database.
   * @default false
   */
  preserveSessionInDatabase?: boolean;
}

/** `verification` options about where verification values live and how identifiers are stored. */
export interface VerificationStorageOptions {
  /** With `secondaryStorage`, also keep verification values in the database. @default false */
  storeInDatabase?: boolean;
  /** @default "plain" */
  storeIdentifier?: StoreIdentifierConfig;
}

/** Where sessions and verification values go, resolved once from the options. */
export interface StoreRouting {
  secondaryStorage?: SecondaryStorage;
  logger?: Logger;
  /** Sessions are written to the database (always true without secondary storage). */
  sessionInDatabase: boolean;
  /** Revoked database sessions are ended, not deleted (only with secondary storage). */
  preserveSessionInDatabase: boolean;
  /** Verification values are written to the database (always true without secondary storage). */
  verificationInDatabase: boolean;
  storeIdentifier?: StoreIdentifierConfig;
}

/** Resolves `secondaryStorage`, `session.*InDatabase` and `verification.store*` into a routing. */
export function resolveStoreRouting(options: LatchkeyOptions, logger?: Logger): StoreRouting {
  const storage = options.secondaryStorage;
  if (
    storage &&
    (typeof storage.get !== "function" ||
      typeof storage.set !== "function" ||
      typeof storage.delete !== "function")
  ) {
    throw new TypeError("secondaryStorage needs get(key), set(key, value, ttl) and delete(key) functions.");
  }
  return {
    secondaryStorage: storage,
    logger,
    sessionInDatabase: !storage || !!options.session?.storeSessionInDatabase,
    preserveSessionInDatabase: !!storage && !!options.session?.preserveSessionInDatabase,
    verificationInDatabase: !storage || !!options.verification?.storeInDatabase,
    storeIdentifier: options.verification?.storeIdentifier,
  };
}

/**
 * The schema with `session` / `verification` marked `disableMigration` when they live only in
 * secondary storage, so no table is created or required for them (reference core.md §2.1 omits
 * them). They stay in the schema because their fields still drive defaults and output filtering.
 */
export function markStorageOnlyTables(schema: ResolvedSchema, routing: StoreRouting): ResolvedSchema {
  const out: ResolvedSchema = { ...schema };
  const storageOnly = [
    routing.sessionInDatabase ? null : "session",
    routing.verificationInDatabase ? null : "verification",
  ];
  for (const model of storageOnly) {
    const def = model ? out[model] : undefined;
    if (model && def) out[model] = { ...def, disableMigration: true };
  }
  return out;
}
