import type { EndpointContext, User, Where } from "@latchkey/core";
import { deviceError } from "./error-codes.js";
import type { DeviceCodeRow } from "./schema.js";
import { consumeApproved, deleteDeviceCode, findByDeviceCode, recordPoll } from "./store.js";

/** RFC 8628 §3.5: after `slow_down` the polling interval grows by 5 seconds. */
export const SLOW_DOWN_STEP_MS = 5000;

/** What a token issuer adds to redemption: its checks on the row, and the guard the atomic take must also match. */
export interface RedemptionCheck {
  /** Refuses a row this caller may not redeem (throws); returns the extra conditions of the atomic take. */
  authorize(row: DeviceCodeRow): Promise<Where[]> | Where[];
}

/** An approved code taken by this caller, and the user who approved it. */
export interface Redemption {
  row: DeviceCodeRow;
  user: User;
}

/** Whether the code's lifetime is over at `now` (a code is expired from its `expiresAt` instant on). */
export const isExpired = (row: Pick<DeviceCodeRow, "expiresAt">, now = Date.now()): boolean =>
  new Date(row.expiresAt).getTime() <= now;

/**
 * The RFC 8628 polling state machine, shared by every token issuer (first-party sessions
 * here; an OAuth token endpoint can reuse it with its own `check`). In order: unknown code
 * `invalid_grant`; the issuer's checks; polling sooner than the stored interval after the
 * last poll `slow_down` (and the interval grows by 5 s); expired `expired_token` (row
 * deleted); pending `authorization_pending`; denied `access_denied` (row deleted); approved:
 * the row is taken in one atomic delete, so of concurrent polls exactly one redeems it.
 */
export async function redeemDeviceCode(ctx: EndpointContext, deviceCode: string, check: RedemptionCheck): Promise<Redemption> {
  const row = await findByDeviceCode(ctx, deviceCode);
  if (!row) throw deviceError("BAD_REQUEST", "invalid_grant", "INVALID_DEVICE_CODE");
  const guard = await check.authorize(row);
  const now = Date.now();
  if (row.lastPolledAt && row.pollingInterval && now - new Date(row.lastPolledAt).getTime() < row.pollingInterval) {
    await recordPoll(ctx, row, SLOW_DOWN_STEP_MS);
    throw deviceError("BAD_REQUEST", "slow_down", "POLLING_TOO_FREQUENTLY");
  }
  await recordPoll(ctx, row);
  if (isExpired(row, now)) {
    await deleteDeviceCode(ctx, row.id);
    throw deviceError("BAD_REQUEST", "expired_token", "EXPIRED_DEVICE_CODE");
  }
  if (row.status === "pending") throw deviceError("BAD_REQUEST", "authorization_pending", "AUTHORIZATION_PENDING");
  if (row.status === "denied") {
    await deleteDeviceCode(ctx, row.id);
    throw deviceError("BAD_REQUEST", "access_denied", "ACCESS_DENIED");
  }
  // An approved row always names its user; anything else is a broken row no poll can redeem.
  if (row.status !== "approved" || !row.userId) throw deviceError("BAD_REQUEST", "invalid_grant", "INVALID_DEVICE_CODE_STATUS");
  const user = await ctx.context.internalAdapter.findUserById(row.userId);
  if (!user) {
    await deleteDeviceCode(ctx, row.id);
    throw deviceError("BAD_REQUEST", "invalid_grant", "USER_NOT_FOUND");
  }
  const taken = await consumeApproved(ctx, row.id, guard);
  if (!taken?.userId) throw deviceError("BAD_REQUEST", "invalid_grant", "INVALID_DEVICE_CODE");
  return { row: taken, user };
}
