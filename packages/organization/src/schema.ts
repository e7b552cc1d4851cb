import type { DBField, ModelSchema, SchemaDefinition } from "@latchkey/core";
import type { ResolvedOrganizationOptions, TableOptions } from "./options.js";

type Fields = Record<string, DBField>;

/** Applies a table's `modelName`, field renames and extra columns. */
function table(fields: Fields, options: TableOptions | undefined): ModelSchema {
  const renamed: Fields = {};
  for (const [name, field] of Object.entries(fields)) {
    const fieldName = options?.fields?.[name];
    renamed[name] = fieldName ? { ...field, fieldName } : field;
  }
  return {
    ...(options?.modelName ? { modelName: options.modelName } : {}),
    fields: { ...renamed, ...options?.additionalFields },
  };
}

const ref = (model: string): DBField["references"] => ({ model, field: "id" });

/**
 * The plugin's tables, column for column the reference's: `organization`, `member` and
 * `invitation` always; `team` and `teamMember` with teams (their `memberCount` and
 * `membershipKey` are the spec's internal columns for the atomic seat count, never
 * answered); `organizationRole` with dynamic access control; and the session's
 * `activeOrganizationId` / `activeTeamId`.
 */
export function organizationSchema(options: ResolvedOrganizationOptions): SchemaDefinition {
  const s = options.schema;
  const schema: SchemaDefinition = {
    organization: table(
      {
        name: { type: "string", required: true, sortable: true },
        slug: { type: "string", required: true, unique: true, sortable: true, index: true },
        logo: { type: "string", required: false },
        createdAt: { type: "date", required: true },
        // JSON text, as the reference stores it.
        metadata: { type: "string", required: false },
      },
      s?.organization,
    ),
  };
  if (options.dynamicRoles) {
    schema.organizationRole = table(
      {
        organizationId: { type: "string", required: true, references: ref("organization"), index: true },
        role: { type: "string", required: true, index: true },
        permission: { type: "string", required: true },
        createdAt: { type: "date", required: true, defaultValue: () => new Date() },
        updatedAt: { type: "date", required: false, onUpdate: () => new Date() },
      },
      s?.organizationRole,
    );
  }
  if (options.teamsEnabled) {
    schema.team = table(
      {
        name: { type: "string", required: true },
        memberCount: { type: "number", required: true, defaultValue: 0, input: false, returned: false },
        organizationId: { type: "string", required: true, references: ref("organization"), index: true },
        createdAt: { type: "date", required: true },
        updatedAt: { type: "date", required: false, onUpdate: () => new Date() },
      },
      s?.team,
    );
    schema.teamMember = table(
      {
        teamId: { type: "string", required: true, references: ref("team"), index: true },
        userId: { type: "string", required: true, references: ref("user"), index: true },
        membershipKey: { type: "string", required: false, unique: true, input: false, returned: false },
        createdAt: { type: "date", required: false },
      },
      s?.teamMember,
    );
  }
  schema.member = table(
    {
      organizationId: { type: "string", required: true, references: ref("organization"), index: true },
      userId: { type: "string", required: true, references: ref("user"), index: true },
      role: { type: "string", required: true, sortable: true, defaultValue: "member" },
      createdAt: { type: "date", required: true },
    },
    s?.member,
  );
  schema.invitation = table(
    {
      organizationId: { type: "string", required: true, references: ref("organization"), index: true },
      email: { type: "string", required: true, sortable: true, index: true },
      role: { type: "string", required: false, sortable: true },
      ...(options.teamsEnabled ? { teamId: { type: "string", required: false, sortable: true } as DBField } : {}),
      status: { type: "string", required: true, sortable: true, defaultValue: "pending" },
      expiresAt: { type: "date", required: true },
      createdAt: { type: "date", required: true, defaultValue: () => new Date() },
      inviterId: { type: "string", required: true, references: ref("user") },
    },
    s?.invitation,
  );
  const sessionFields: Fields = { activeOrganizationId: { type: "string", required: false, input: false } };
  if (options.teamsEnabled) sessionFields.activeTeamId = { type: "string", required: false, input: false };
  schema.session = table(sessionFields, { fields: s?.session?.fields as Record<string, string> | undefined });
  return schema;
}
