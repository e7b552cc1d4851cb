import { APIError, toOutput, type EndpointContext, type SessionWithUser, type StatusName } from "@latchkey/core";
import { ORGANIZATION_ERROR_CODES } from "./error-codes.js";
import type { ResolvedOrganizationOptions } from "./options.js";
import { hasPermission, type Permissions } from "./permission.js";
import { findMember } from "./member-store.js";
import type { MemberRow, OrganizationRow } from "./rows.js";

/** One of the plugin's error codes. */
export type OrganizationCode = Exclude<keyof typeof ORGANIZATION_ERROR_CODES, "fail">;

/** Throws one of the plugin's codes with the given status. */
export const fail = ORGANIZATION_ERROR_CODES.fail;

/** An error whose body is `{ message }` only, as the reference sends a few of them. */
export const messageError = (status: StatusName, message: string): APIError => new APIError(status, { message });

/** The session's active organization id, or null. */
export const activeOrganizationId = (session: SessionWithUser | null | undefined): string | null =>
  (session?.session.activeOrganizationId as string | null | undefined) || null;

/** The session's active team id, or null. */
export const activeTeamId = (session: SessionWithUser | null | undefined): string | null =>
  (session?.session.activeTeamId as string | null | undefined) || null;

/** Whether the call carries a request or any headers (a bare `auth.api` call does not). */
export const calledWithHeaders = (ctx: EndpointContext): boolean =>
  ctx.request !== undefined || [...ctx.headers.keys()].length > 0;

/** An organization as the read routes answer it (metadata left as its stored JSON text). */
export const organizationOutput = (ctx: EndpointContext, row: OrganizationRow): OrganizationRow =>
  toOutput(ctx.context.schema, "organization", row);

/** An organization with `metadata` parsed, as create and update answer it. */
export function organizationWithMetadata(ctx: EndpointContext, row: OrganizationRow): Record<string, unknown> {
  const out = organizationOutput(ctx, row) as Record<string, unknown>;
  const { metadata } = out;
  if (typeof metadata !== "string" || !metadata) return { ...out, metadata: undefined };
  try {
    return { ...out, metadata: JSON.parse(metadata) as unknown };
  } catch {
    return out;
  }
}

/**
 * The caller's membership, re-read and re-checked: used inside the organization lock right
 * before a write, so a member removed (or demoted) while their request was on its way is
 * refused with the answer the first check would now give.
 */
export async function stillAllowed(
  ctx: EndpointContext,
  options: ResolvedOrganizationOptions,
  check: {
    userId: string;
    organizationId: string;
    permissions?: Permissions;
    allowCreatorAllPermissions?: boolean;
    /** The answer when the caller is no longer a member. */
    notMember: [OrganizationCode, StatusName];
    /** The answer when the caller may no longer do this. */
    denied?: OrganizationCode;
  },
): Promise<MemberRow> {
  const member = await findMember(ctx.context.adapter, check.userId, check.organizationId);
  if (!member) throw fail(check.notMember[0], check.notMember[1]);
  if (check.permissions && check.denied) {
    const allowed = await hasPermission(ctx.context.adapter, options, {
      role: member.role,
      organizationId: check.organizationId,
      permissions: check.permissions,
      allowCreatorAllPermissions: check.allowCreatorAllPermissions,
    });
    if (!allowed) throw fail(check.denied, "FORBIDDEN");
  }
  return member;
}
