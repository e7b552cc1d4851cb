import type { EndpointContext } from "@latchkey/core";
import { configIdMatches, pickConfig } from "../configurations.js";
import { API_KEY_ERROR_CODES } from "../error-codes.js";
import { checkOrgKeyAccess, type OrgKeyAction } from "../org-access.js";
import type { ResolvedConfig } from "../options.js";
import type { ApiKeyRecord } from "../record.js";
import { findById } from "../store.js";

/**
 * The key `keyId` when `userId` may act on it: looked up in the configuration `configId`
 * names, which must be the key's own; a user key must be the user's, an organization key
 * needs membership and the permission for `action`. 404 `KEY_NOT_FOUND` otherwise, so
 * another user's key looks the same as no key.
 */
export async function findOwnedKey(
  ctx: EndpointContext,
  configs: readonly ResolvedConfig[],
  args: { keyId: string; configId: string | undefined; userId: string; action: OrgKeyAction },
): Promise<{ record: ApiKeyRecord; config: ResolvedConfig }> {
  const lookup = pickConfig(configs, args.configId);
  const record = await findById(ctx.context, lookup, args.keyId);
  if (!record || !configIdMatches(record.configId, lookup.configId)) throw API_KEY_ERROR_CODES.fail("KEY_NOT_FOUND", "NOT_FOUND");
  const config = pickConfig(configs, record.configId);
  if (config.references === "organization") await checkOrgKeyAccess(ctx, args.userId, record.referenceId, args.action);
  else if (record.referenceId !== args.userId) throw API_KEY_ERROR_CODES.fail("KEY_NOT_FOUND", "NOT_FOUND");
  return { record, config };
}
