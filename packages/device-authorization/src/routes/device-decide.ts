import { endpoint, getSessionFromRequest } from "@latchkey/core";
import * as v from "valibot";
import { deviceError, oauthError } from "../error-codes.js";
import { isExpired } from "../redeem.js";
import { decideDeviceCode, findByUserCode } from "../store.js";

const body = v.object({ userCode: v.string() });

/**
 * `POST /device/approve` and `POST /device/deny` `{ userCode }` (session required): the
 * owner of a claimed, pending code decides it → `{ success: true }`. No session 401
 * `unauthorized`; unknown code 400 `invalid_request`; expired 400 `expired_token`; already
 * decided or never claimed 400 `invalid_request`; another user's code 403 `access_denied`.
 * The decision is one conditional write on a still-pending row, so a code is decided once.
 */
const decide = (path: "/device/approve" | "/device/deny", status: "approved" | "denied", verb: "approve" | "deny") =>
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
    if (!(await decideDeviceCode(ctx, row.id, session.user.id, status))) {
      throw deviceError("BAD_REQUEST", "invalid_request", "DEVICE_CODE_ALREADY_PROCESSED");
    }
    return { success: true };
  });

/** `POST /device/approve`: lets the device's next poll redeem the code. */
export const deviceApprove = () => decide("/device/approve", "approved", "approve");

/** `POST /device/deny`: the device's next poll gets `access_denied`. */
export const deviceDeny = () => decide("/device/deny", "denied", "deny");
