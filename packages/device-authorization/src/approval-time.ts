import type { EndpointContext } from "@latchkey/core";
import type { DeviceCodeRow } from "./schema.js";

/**
 * When the approving user authenticated, kept for the ID token's `auth_time` (OIDC Core §2)
 * in a `verification` row beside the device code, so the reference's `deviceCode` table
 * stays as it is. It lives as long as the code and is taken once, at redemption.
 */
const identifier = (rowId: string): string => `device-auth-time:${rowId}`;

/** Records the approving session's sign-in time for the code `row`. */
export async function recordApprovalTime(ctx: EndpointContext, row: DeviceCodeRow, signedInAt: Date): Promise<void> {
  await ctx.context.internalAdapter.createVerificationValue(
    { identifier: identifier(row.id), value: JSON.stringify({ authTime: new Date(signedInAt).getTime() }), expiresAt: new Date(row.expiresAt) },
    ctx,
  );
}

/** Takes the recorded sign-in time of the code `rowId` (single use); none for codes approved before it was kept. */
export async function takeApprovalTime(ctx: EndpointContext, rowId: string): Promise<Date | undefined> {
  const stored = await ctx.context.internalAdapter.consumeVerificationValue(identifier(rowId));
  if (!stored) return undefined;
  try {
    const { authTime } = JSON.parse(stored.value) as { authTime?: unknown };
    return typeof authTime === "number" && Number.isFinite(authTime) ? new Date(authTime) : undefined;
  } catch {
    return undefined;
  }
}
