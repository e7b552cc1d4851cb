import { APIError, type Adapter, type EndpointContext } from "@latchkey/core";
import { fromRow } from "./lookup.js";
import { providerFingerprint } from "./provider-reference.js";
import type { ResolvedSSOOptions } from "./options.js";
import type { SSOProviderRow, StoredOIDCConfig } from "./schema.js";

/** The transient reference to the exact provider configuration a guard is asked about (the reference's shape). */
export interface SSOProviderReference {
  providerId: string;
  source: { type: "configured" } | { type: "persisted"; recordId: string };
  authenticationConfigurationFingerprint: string;
}

/** What `guardProviderMutation` is asked: an update (saying whether it moves the authentication boundary) or a delete. */
export type SSOProviderMutationGuardInput = {
  provider: { id: string; providerId: string; organizationId: string | null };
  providerReference: SSOProviderReference;
} & ({ action: "update"; isAuthenticationBoundaryChange: boolean } | { action: "delete" });

/** The guard's second argument: the adapter of the transaction the provider row is locked in. */
export interface SSOProviderMutationGuardContext {
  database: Adapter;
}

/** The mutation being guarded, without the provider (filled in here). */
export type ProviderMutation =
  { action: "update"; isAuthenticationBoundaryChange: boolean } | { action: "delete" };

const changed = () =>
  APIError.from(
    "CONFLICT",
    "SSO_PROVIDER_CHANGED",
    "SSO provider changed while the mutation was in progress",
  );

/**
 * Runs a provider update or delete (`write`, given the adapter to write with). With
 * `guardProviderMutation`, inside one transaction: the provider's row is locked first (an
 * `UPDATE` writing its own `providerId` back), the guard is asked with the locked row's
 * identity and fingerprint, and only then `write` runs, so the guard's answer holds for the
 * write. A throwing guard is answered 409 `SSO_PROVIDER_MUTATION_REJECTED` (its error is not
 * shown); a row that vanished meanwhile 409 `SSO_PROVIDER_CHANGED`.
 */
export async function guardedMutation<R>(
  ctx: EndpointContext,
  options: ResolvedSSOOptions,
  row: SSOProviderRow,
  mutation: ProviderMutation,
  write: (db: Adapter) => Promise<R>,
): Promise<R> {
  const guard = options.guardProviderMutation;
  if (!guard) return write(ctx.context.adapter);
  return ctx.context.adapter.transaction(async (db) => {
    const locked = await db.update<SSOProviderRow>({
      model: "ssoProvider",
      where: [{ field: "id", value: row.id }],
      update: { providerId: row.providerId },
    });
    if (!locked) throw changed();
    const providerReference: SSOProviderReference = {
      providerId: locked.providerId,
      source: { type: "persisted", recordId: locked.id },
      authenticationConfigurationFingerprint: await providerFingerprint(
        fromRow(locked) ?? {
          providerId: locked.providerId,
          issuer: locked.issuer,
          domain: locked.domain,
          domainVerified: locked.domainVerified,
          organizationId: locked.organizationId,
          config: {} as StoredOIDCConfig,
          storedConfig: {},
          source: { type: "persisted", recordId: locked.id },
        },
      ),
    };
    try {
      await guard(
        {
          ...mutation,
          provider: {
            id: locked.id,
            providerId: locked.providerId,
            organizationId: locked.organizationId ?? null,
          },
          providerReference,
        },
        { database: db },
      );
    } catch {
      ctx.context.logger.error("SSO provider mutation guard rejected the mutation");
      throw APIError.from(
        "CONFLICT",
        "SSO_PROVIDER_MUTATION_REJECTED",
        "SSO provider mutation is not allowed",
      );
    }
    return write(db);
  });
}
