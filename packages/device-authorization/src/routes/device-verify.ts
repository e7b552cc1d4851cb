import { endpoint, getSessionFromRequest } from "@latchkey/core";
import * as v from "valibot";
import { deviceError } from "../error-codes.js";
import { isExpired } from "../redeem.js";
import type { DeviceCodeRow } from "../schema.js";
import { claimDeviceCode, findByUserCode } from "../store.js";

const query = v.object({ user_code: v.string() });

/** The RFC 8707 resources an OAuth client's code is bound to, as the reference shows them: one as a string, several as a list. */
function boundResources(row: DeviceCodeRow): { resource?: string | string[] } {
  const resources = row.resources;
  if (typeof row.oauthClientId !== "string" || !Array.isArray(resources) || !resources.every((r) => typeof r === "string")) return {};
  return { resource: resources.length === 1 ? resources[0]! : resources };
}

/**
 * `GET /device?user_code=…`: `{ user_code, status }` of a code, plus `client_id` and `scope`
 * for the signed-in user it belongs to (and `resource`, an OAuth client's RFC 8707 resources). A signed-in visitor claims a pending, unclaimed code
 * (one conditional write: of two visitors racing, one owns it); only its owner may then
 * approve or deny it. Unknown code 400 `invalid_request`, expired 400 `expired_token`.
 */
export const deviceVerify = () =>
  endpoint("/device", { method: "GET", query }, async (ctx) => {
    const typed = ctx.query.user_code;
    const row = await findByUserCode(ctx, typed);
    if (!row) throw deviceError("BAD_REQUEST", "invalid_request", "INVALID_USER_CODE");
    if (isExpired(row)) throw deviceError("BAD_REQUEST", "expired_token", "EXPIRED_USER_CODE");
    const viewer = (await getSessionFromRequest(ctx))?.user.id;
    if (viewer && !row.userId && row.status === "pending" && (await claimDeviceCode(ctx, row.id, viewer))) {
      row.userId = viewer;
    }
    const owner = viewer !== undefined && row.userId === viewer;
    return {
      user_code: typed,
      status: row.status,
      ...(owner ? { client_id: row.clientId ?? null, scope: row.scope ?? null, ...boundResources(row) } : {}),
    };
  });
