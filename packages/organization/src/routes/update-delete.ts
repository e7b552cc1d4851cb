import { APIError, endpoint, getSessionFromRequest, type EndpointContext } from "@latchkey/core";
import * as v from "valibot";
import { additionalFieldEntries } from "../additional-fields.js";
import { organizationName, organizationSlug } from "./create.js";
import { mergeHookData } from "../hooks.js";
import { findOrganization, findOrganizationBySlug } from "../member-store.js";
import { withOrganizationLock } from "../org-lock.js";
import type { ResolvedOrganizationOptions } from "../options.js";
import { activeOrganizationId, fail, organizationOutput, organizationWithMetadata, stillAllowed } from "../route-kit.js";
import type { OrganizationRow } from "../rows.js";

/** The caller's membership, allowed to `action` the organization (checked before, and again inside, the lock). */
const mayChange = (ctx: EndpointContext, options: ResolvedOrganizationOptions, userId: string, organizationId: string, action: "update" | "delete") =>
  stillAllowed(ctx, options, {
    userId,
    organizationId,
    permissions: { organization: [action] },
    notMember: ["USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION", "BAD_REQUEST"],
    denied: action === "update" ? "YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_ORGANIZATION" : "YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_ORGANIZATION",
  });

/**
 * `POST /organization/update` `{ data, organizationId? }`: changes the organization (needs
 * `organization:update`). A `data` with nothing to change is a 400 `VALIDATION_ERROR`
 * (the reference answers 500: DIVERGENCES.md row 68).
 */
export function updateOrganization(options: ResolvedOrganizationOptions) {
  const data = v.pipe(
    v.object({
      name: v.optional(organizationName),
      slug: v.optional(organizationSlug),
      logo: v.nullish(v.string()),
      metadata: v.optional(v.record(v.string(), v.unknown())),
      ...additionalFieldEntries(options.schema?.organization?.additionalFields, true),
    }),
    v.check((d) => Object.values(d).some((value) => value !== undefined), "Nothing to update"),
  );
  const body = v.object({ data, organizationId: v.optional(v.string()) });
  return endpoint("/organization/update", { method: "POST", body, requireHeaders: true }, async (ctx) => {
    const session = await getSessionFromRequest(ctx);
    if (!session) throw new APIError("UNAUTHORIZED", { message: "User not found" });
    const organizationId = ctx.body.organizationId || activeOrganizationId(session);
    if (!organizationId) throw fail("ORGANIZATION_NOT_FOUND", "BAD_REQUEST");
    const { adapter } = ctx.context;
    const member = await mayChange(ctx, options, session.user.id, organizationId, "update");
    let changes: Record<string, unknown> = Object.fromEntries(Object.entries(ctx.body.data).filter(([, value]) => value !== undefined));
    if (typeof changes.slug === "string") {
      const taken = await findOrganizationBySlug(adapter, changes.slug);
      if (taken && taken.id !== organizationId) throw fail("ORGANIZATION_SLUG_ALREADY_TAKEN", "BAD_REQUEST");
    }
    const hooks = options.organizationHooks;
    if (hooks?.beforeUpdateOrganization) {
      changes = mergeHookData(changes, await hooks.beforeUpdateOrganization({ organization: changes, user: session.user, member }));
    }
    if (changes.metadata && typeof changes.metadata === "object") changes.metadata = JSON.stringify(changes.metadata);
    const updated = await withOrganizationLock(ctx, organizationId, async () => {
      await mayChange(ctx, options, session.user.id, organizationId, "update");
      return ctx.context.internalAdapter.update<OrganizationRow>("organization", [{ field: "id", value: organizationId }], changes);
    });
    const answer = updated ? organizationWithMetadata(ctx, updated) : null;
    await hooks?.afterUpdateOrganization?.({ organization: updated, user: session.user, member });
    return answer;
  });
}

/**
 * `POST /organization/delete` `{ organizationId }`: deletes the organization with its members,
 * invitations, teams and roles (needs `organization:delete`) and answers the deleted row.
 */
export function deleteOrganization(options: ResolvedOrganizationOptions) {
  const body = v.object({ organizationId: v.string() });
  return endpoint("/organization/delete", { method: "POST", body, requireHeaders: true }, async (ctx) => {
    if (options.disableOrganizationDeletion) throw fail("ORGANIZATION_DELETION_DISABLED", "NOT_FOUND");
    const session = await getSessionFromRequest(ctx);
    if (!session) throw new APIError("UNAUTHORIZED");
    const { organizationId } = ctx.body;
    if (!organizationId) throw fail("ORGANIZATION_NOT_FOUND", "BAD_REQUEST");
    const { adapter, internalAdapter } = ctx.context;
    await mayChange(ctx, options, session.user.id, organizationId, "delete");
    if (organizationId === activeOrganizationId(session)) {
      await internalAdapter.updateSession(session.session.token, { activeOrganizationId: null });
    }
    const organization = await findOrganization(adapter, organizationId);
    if (!organization) throw new APIError("BAD_REQUEST");
    await options.organizationHooks?.beforeDeleteOrganization?.({ organization, user: session.user });
    await withOrganizationLock(ctx, organizationId, async (db) => {
      await mayChange(ctx, options, session.user.id, organizationId, "delete");
      const inOrg = [{ field: "organizationId", value: organizationId }];
      if (options.teamsEnabled) {
        const teams = await db.findMany<{ id: string }>({ model: "team", where: inOrg, select: ["id"] });
        if (teams.length) {
          await db.deleteMany({ model: "teamMember", where: [{ field: "teamId", value: teams.map((t) => t.id), operator: "in" }] });
        }
        await db.deleteMany({ model: "team", where: inOrg });
      }
      if (options.dynamicRoles) await db.deleteMany({ model: "organizationRole", where: inOrg });
      await db.deleteMany({ model: "member", where: inOrg });
      await db.deleteMany({ model: "invitation", where: inOrg });
      await db.delete({ model: "organization", where: [{ field: "id", value: organizationId }] });
    });
    await options.organizationHooks?.afterDeleteOrganization?.({ organization, user: session.user });
    return organizationOutput(ctx, organization);
  });
}

