import { APIError, fieldValueSchema, type DBField, type FieldValueSchema } from "@latchkey/core";
import * as v from "valibot";
import type { SSOProviderRow } from "./schema.js";

/** Columns of the table itself; an additional field may neither be one nor be stored in one. */
const BUILT_IN = [
  "id",
  "issuer",
  "oidcConfig",
  "samlConfig",
  "userId",
  "providerId",
  "organizationId",
  "domain",
  "domainVerified",
];
/** Keys the routes' answers already use. */
const ANSWER_KEYS = ["type", "spMetadataUrl", "redirectURI", "domainVerificationToken"];

/** The additional fields of `ssoProvider` (`schema.ssoProvider.additionalFields`), as the options give them. */
export type SSOProviderAdditionalFields = Record<string, DBField>;

/**
 * Refuses additional fields that would shadow a column or an answer key, or be stored in a
 * column of the table (the reference's checks and messages, at `sso()`).
 */
export function assertNoFieldCollisions(
  fields: SSOProviderAdditionalFields,
  renames: Partial<Record<string, string>> = {},
): void {
  const columns = new Set(BUILT_IN.map((key) => renames[key] ?? key));
  for (const [key, field] of Object.entries(fields)) {
    if (BUILT_IN.includes(key))
      throw new Error(`ssoProvider additional field "${key}" conflicts with a built-in field`);
    if (ANSWER_KEYS.includes(key))
      throw new Error(`ssoProvider additional field "${key}" conflicts with a returned provider field`);
    const column = field.fieldName ?? key;
    if (columns.has(column))
      throw new Error(`ssoProvider additional field "${key}" maps to built-in field "${column}"`);
  }
}

type Entry = FieldValueSchema;

/**
 * Body entries for the fields: on register a required field without a default must be given,
 * on update (`partial`) none; an `input: false` field is accepted by the schema and refused by
 * {@link additionalInput} (the reference's 400).
 */
export function additionalBodyEntries(
  fields: SSOProviderAdditionalFields,
  partial: boolean,
): Record<string, Entry> {
  const entries: Record<string, Entry> = {};
  for (const [name, field] of Object.entries(fields)) {
    if (field.input === false) {
      entries[name] = v.optional(v.unknown()) as Entry;
      continue;
    }
    const schema = fieldValueSchema(field);
    const needed = !partial && field.required !== false && field.defaultValue === undefined;
    entries[name] = needed ? schema : (v.nullish(schema) as Entry);
  }
  return entries;
}

/**
 * The fields' values to write from a body: an `input: false` field present is 400 "<field> is
 * not allowed to be set"; on create, defaults fill absent fields.
 */
export function additionalInput(
  fields: SSOProviderAdditionalFields,
  body: Record<string, unknown>,
  action: "create" | "update",
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(fields)) {
    if (field.input === false && name in body)
      throw new APIError("BAD_REQUEST", { message: `${name} is not allowed to be set` });
    if (body[name] !== undefined) out[name] = body[name];
    else if (action === "create" && field.defaultValue !== undefined)
      out[name] =
        typeof field.defaultValue === "function"
          ? (field.defaultValue as () => unknown)()
          : field.defaultValue;
  }
  return out;
}

/** The fields a provider answer shows (`returned` not false), from a row. */
export function returnedAdditional(
  row: SSOProviderRow,
  fields: SSOProviderAdditionalFields,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(fields)) {
    if (field.returned === false || !(name in row)) continue;
    out[name] = row[name];
  }
  return out;
}
