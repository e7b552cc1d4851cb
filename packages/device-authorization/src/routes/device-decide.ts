import { endpoint, getSessionFromRequest, type EndpointContext } from "@latchkey/core";
import * as v from "valibot";
import { deviceError, oauthError } from "../error-codes.js";
import { isExpired } from "../redeem.js";
import type { DeviceCodeRow } from "../schema.js";
import { decideDeviceCode, findByUserCode } from "../store.js";

/** A step run just before a code is approved, with the row and the approving session's sign-in time. */
export type BeforeApprove = (ctx: EndpointContext, row: DeviceCodeRow, signedInAt: Date) => Promise<void>;

const body = v.object({ userCode: v.string() });

/**
 * `POST /device/approve` and `POST /device/deny` `{ userCode }` (session required): the
 * owner of a claimed, pending code decides it → `{ success: true }`. No session 401
 * `unauthorized`; unknown code 400 `invalid_request`; expired 400 `expired_token`; already
 * decided or never claimed 400 `invalid_request`; another user's code 403 `access_denied`.
 * The decision is one conditional write on a still-pending row, so a code is decided once.
 */
const decide = (path: "/device/approve" | "/device/deny", status: "approved" | "denied", verb: "approve" | "deny", before?: BeforeApprove) =>
  endpoint(path, { method: "POST", body, requireHeaders: true }, async (ctx) => {
    const session = await getSessionFromRequest(ctx);
    if (!session) throw deviceError("UNAUTHORIZED", "unauthorized", "AUTHENTICATION_REQUIRED");
    const row = await findByUserCode(ctx, ctx.body.userCode);
    if (!row) throw deviceError("BAD_REQUEST", "invalid_request", "INVALID_USER_CODE");
    if (isExpired(row)) throw deviceError("BAD_REQUEST", "expired_token", "EXPIRED_USER_CODE");
    if (row.status !== "pending") throw deviceError("BAD_REQUEST", "invalid_request", "DEVICE_CODE_ALREADY_PROCESSED");
    if (!row.userId) throw deviceError("BAD_REQUEST", "invalid_request", "DEVICE_CODE_NOT_CLAIMED");
    if (row.userId !== session.user.id) {
      throw oauthError("FORBIDDEN", "access_denied", `You are not authorized to ${verb} this device authorization`);
    }
    // Written before the decision, so an approved code always finds it; a lost race leaves a row
    // that expires with the code.
    if (before) await before(ctx, row, new Date(session.session.createdAt));
    if (!(await decideDeviceCode(ctx, row.id, session.user.id, status))) {
      throw deviceError("BAD_REQUEST", "invalid_request", "DEVICE_CODE_ALREADY_PROCESSED");
    }
    return { success: true };
  });

/** `POST /device/approve`: lets the device's next poll redeem the code (`before` runs first, e.g. to keep the sign-in time). */
export const deviceApprove = (before?: BeforeApprove) => decide("/device/approve", "approved", "approve", before);

/** `POST /device/deny`: the device's next poll gets `access_denied`. */
export const deviceDeny = () => decide("/device/deny", "denied", "deny");
