import type { AuthContext } from "@latchkey/core";
import { RESOURCE_SIGNING_ALGORITHMS, type OAuthResourceInput, type ResourceOptions } from "./resource-options.js";
import { signingPinProblem } from "./signing-pin.js";
import { insertRow } from "./token-rows.js";

/** An `oauthResource` row, as the reference writes it. */
export type OAuthResourceRow = {
  id: string;
  identifier: string;
  name: string;
  accessTokenTtl: number | null;
  refreshTokenTtl: number | null;
  signingAlgorithm: string | null;
  signingKeyId: string | null;
  allowedScopes: string[] | null;
  customClaims: Record<string, unknown> | null;
  dpopBoundAccessTokensRequired: boolean | null;
  disabled: boolean | null;
  policyVersion: number | null;
  metadata: Record<string, unknown> | null;
  createdAt: Date;
  updatedAt: Date;
};

/** The policy columns of a row (everything but identity and timestamps). */
export const POLICY_COLUMNS = [
  "name", "accessTokenTtl", "refreshTokenTtl", "signingAlgorithm", "signingKeyId", "allowedScopes",
  "customClaims", "dpopBoundAccessTokensRequired", "disabled", "metadata",
] as const;

/** RFC 8707 §2 (absolute URI, no fragment) or the configured `identifierValidator`: the reason it fails, else null. */
export async function identifierProblem(options: ResourceOptions, identifier: string): Promise<string | null> {
  if (options.identifierValidator) {
    return (await options.identifierValidator(identifier)) ? null : `resource identifier ${identifier} failed validation`;
  }
  let url: URL;
  try {
    url = new URL(identifier);
  } catch {
    return `resource identifier ${identifier} must be an absolute URI (RFC 8707 §2)`;
  }
  return url.hash ? `resource identifier ${identifier} must not contain a URI fragment (RFC 8707 §2)` : null;
}

/** A new row from an input, missing policy columns null (inherit the provider's defaults), as the reference writes it. */
export function resourceRow(input: OAuthResourceInput, now: Date): Record<string, unknown> {
  return {
    identifier: input.identifier,
    name: input.name ?? input.identifier,
    accessTokenTtl: input.accessTokenTtl ?? null,
    refreshTokenTtl: input.refreshTokenTtl ?? null,
    signingAlgorithm: input.signingAlgorithm ?? null,
    signingKeyId: input.signingKeyId ?? null,
    allowedScopes: input.allowedScopes ?? null,
    customClaims: input.customClaims ?? null,
    dpopBoundAccessTokensRequired: input.dpopBoundAccessTokensRequired ?? false,
    disabled: input.disabled ?? false,
    policyVersion: 1,
    metadata: input.metadata ?? null,
    createdAt: now,
    updatedAt: now,
  };
}

/** A unique-constraint failure of any of the three databases (a concurrent writer won). */
export const isUniqueViolation = (error: unknown): boolean =>
  /unique|duplicate/i.test(error instanceof Error ? `${error.message} ${(error as { code?: unknown }).code ?? ""}` : String(error));

/** Identifiers are unique columns: `VARCHAR(191)` on MySQL as Latchkey makes them. */
export const MAX_IDENTIFIER_LENGTH = 191;

const MISSING_TABLE = /no such table|relation .* does not exist|table .* does(?: not|n't) exist/i;

/**
 * Per-instance state: the cached rows (`cachedResources`) and whether the configured resources
 * were seeded into this database. One per `oauthProvider()` call, keyed by the adapter.
 */
export class ResourceStore {
  readonly #cache = new Map<string, OAuthResourceRow>();
  readonly #seeded = new WeakMap<object, Promise<void>>();

  constructor(readonly options: ResourceOptions) {}

  /** Forgets cached rows (one identifier, or all); the admin routes call it after each write. */
  invalidate(identifier?: string): void {
    if (identifier === undefined) this.#cache.clear();
    else this.#cache.delete(identifier);
  }

  /** Seeds once per database; a failed seed is tried again by the next lookup. */
  seedOnce(ctx: AuthContext): Promise<void> {
    const key = ctx.adapter as object;
    let pending = this.#seeded.get(key);
    if (!pending) {
      pending = this.seed(ctx).catch((error: unknown) => {
        this.#seeded.delete(key);
        throw error;
      });
      this.#seeded.set(key, pending);
    }
    return pending;
  }

  /**
   * Writes the configured `resources` (`resourceSeedMode`). Entries with a bad identifier are
   * skipped with a warning, an unknown `signingAlgorithm` is dropped with one; a row another
   * process inserted first is left to it (the identifier is unique).
   */
  async seed(ctx: AuthContext): Promise<void> {
    const mode = this.options.resourceSeedMode ?? "insertOnly";
    for (const entry of this.options.resources ?? []) {
      let input: OAuthResourceInput = typeof entry === "string" ? { identifier: entry } : { ...entry };
      const problem =
        typeof input.identifier === "string" && input.identifier.length > MAX_IDENTIFIER_LENGTH
          ? `resource identifier longer than ${MAX_IDENTIFIER_LENGTH} characters`
          : await identifierProblem(this.options, input.identifier);
      if (problem) {
        ctx.logger.warn(`oauth-provider: resource seed skipped: ${problem}`);
        continue;
      }
      if (input.signingAlgorithm != null && !(RESOURCE_SIGNING_ALGORITHMS as readonly string[]).includes(input.signingAlgorithm)) {
        ctx.logger.warn(`oauth-provider: unsupported signingAlgorithm dropped for resource ${input.identifier}`);
        const { signingAlgorithm: _dropped, ...rest } = input;
        input = rest;
      }
      // Seeded as configured (the key may be made later); requests for it are refused until then.
      const pinProblem = await signingPinProblem(ctx, input);
      if (pinProblem) ctx.logger.warn(`oauth-provider: access tokens for resource ${input.identifier} cannot be signed yet: ${pinProblem}`);
      let existing: OAuthResourceRow | null;
      try {
        existing = await this.#read(ctx, input.identifier);
      } catch (error) {
        if (MISSING_TABLE.test(error instanceof Error ? error.message : String(error))) throw new Error("oauth-provider: the oauthResource table does not exist yet (run the migrations)");
        throw error;
      }
      const now = new Date();
      if (!existing) {
        try {
          await insertRow(ctx, ctx.adapter, "oauthResource", resourceRow(input, now));
        } catch (error) {
          if (!isUniqueViolation(error)) throw error;
        }
        continue;
      }
      if (mode === "insertOnly") continue;
      const update: Record<string, unknown> = { updatedAt: now };
      if (mode === "overwrite") {
        const { identifier: _i, createdAt: _c, ...columns } = resourceRow(input, now);
        Object.assign(update, columns);
      } else {
        for (const column of POLICY_COLUMNS) if (input[column] !== undefined) update[column] = input[column];
      }
      await ctx.adapter.update({ model: "oauthResource", where: [{ field: "identifier", value: input.identifier }], update });
      this.invalidate(input.identifier);
    }
  }

  /** The row of `identifier` (a copy), from the cache when it is in `cachedResources`. */
  async get(ctx: AuthContext, identifier: string): Promise<OAuthResourceRow | null> {
    await this.seedOnce(ctx);
    const cacheable = this.options.cachedResources?.has(identifier) ?? false;
    const cached = cacheable ? this.#cache.get(identifier) : undefined;
    if (cached) return { ...cached };
    const row = await this.#read(ctx, identifier);
    if (row && cacheable) this.#cache.set(identifier, { ...row });
    return row;
  }

  #read(ctx: AuthContext, identifier: string): Promise<OAuthResourceRow | null> {
    return ctx.adapter.findOne<OAuthResourceRow>({ model: "oauthResource", where: [{ field: "identifier", value: identifier }] });
  }
}
