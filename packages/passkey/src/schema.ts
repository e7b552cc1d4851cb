import type { SchemaDefinition } from "@latchkey/core";

/**
 * The `passkey` table, column for column the reference's. `publicKey` is the credential's
 * COSE public key in standard base64 (with padding), `credentialID` the credential id in
 * base64url as the browser reports it, `transports` the transports joined by commas ("" when
 * the browser named none), `deviceType` `singleDevice` or `multiDevice`.
 */
export const passkeySchema = {
  passkey: {
    fields: {
      name: { type: "string", required: false },
      publicKey: { type: "string", required: true },
      userId: { type: "string", required: true, index: true, references: { model: "user", field: "id" } },
      credentialID: { type: "string", required: true, index: true },
      counter: { type: "number", required: true },
      deviceType: { type: "string", required: true },
      backedUp: { type: "boolean", required: true },
      transports: { type: "string", required: false },
      createdAt: { type: "date", required: false },
      aaguid: { type: "string", required: false },
    },
  },
} satisfies SchemaDefinition;

/** The logical fields of the `passkey` table. */
export type PasskeyField = keyof (typeof passkeySchema)["passkey"]["fields"];

/** The reference's `schema` option: another table name, other column names. */
export interface PasskeySchemaOptions {
  passkey?: { modelName?: string; fields?: Partial<Record<PasskeyField, string>> };
}

/** One `passkey` row as the adapter reads it. */
export interface Passkey {
  id: string;
  name?: string | null;
  publicKey: string;
  userId: string;
  credentialID: string;
  counter: number;
  deviceType: string;
  backedUp: boolean;
  transports?: string | null;
  createdAt?: Date | null;
  aaguid?: string | null;
}

/** The table with the `schema` option's renames applied (the reference's `mergeSchema`). */
export function resolvePasskeySchema(options: PasskeySchemaOptions | undefined): SchemaDefinition {
  const override = options?.passkey;
  if (!override) return passkeySchema;
  const fields: SchemaDefinition[string]["fields"] = {};
  for (const [key, field] of Object.entries(passkeySchema.passkey.fields)) {
    const column = override.fields?.[key as PasskeyField];
    fields[key] = column ? { ...field, fieldName: column } : field;
  }
  return { passkey: { fields, ...(override.modelName ? { modelName: override.modelName } : {}) } };
}
