import { APIError, type EndpointContext } from "@latchkey/core";
import { API_KEY_ERROR_CODES } from "./error-codes.js";

/** What this plugin reads of the organization plugin's options (the reference's names). */
interface OrganizationOptionsView {
  creatorRole?: string;
  roles?: Record<string, { authorize?: (request: Record<string, string[]>) => { success: boolean } }>;
}

/** The action a route performs on organization keys. */
export type OrgKeyAction = "create" | "read" | "update" | "delete";

/**
 * Organization-owned keys: the user must be a member of the organization, with the
 * `apiKey:<action>` permission in one of their roles; the creator role (`owner` unless the
 * organization plugin says otherwise) may do everything, as in the reference. Without the
 * organization plugin the answer is 500 `ORGANIZATION_PLUGIN_REQUIRED` (reference).
 */
export async function checkOrgKeyAccess(ctx: EndpointContext, userId: string, organizationId: string, action: OrgKeyAction): Promise<void> {
  const plugin = ctx.context.plugins.find((p) => p.id === "organization");
  if (!plugin) {
    throw new APIError("INTERNAL_SERVER_ERROR", {
      code: "ORGANIZATION_PLUGIN_REQUIRED",
      message: API_KEY_ERROR_CODES.ORGANIZATION_PLUGIN_REQUIRED,
    });
  }
  const options = (plugin.options ?? {}) as OrganizationOptionsView;
  const member = await ctx.context.adapter.findOne<{ role: string }>({
    model: "member",
    where: [
      { field: "userId", value: userId },
      { field: "organizationId", value: organizationId },
    ],
  });
  if (!member) throw API_KEY_ERROR_CODES.fail("USER_NOT_MEMBER_OF_ORGANIZATION", "FORBIDDEN");
  const roles = String(member.role).split(",").map((r) => r.trim());
  const creator = options.creatorRole ?? "owner";
  const allowed = roles.some((role) => {
    if (role === creator) return true;
    try {
      return options.roles?.[role]?.authorize?.({ apiKey: [action] }).success === true;
    } catch {
      return false;
    }
  });
  if (!allowed) throw API_KEY_ERROR_CODES.fail("INSUFFICIENT_API_KEY_PERMISSIONS", "FORBIDDEN");
}
