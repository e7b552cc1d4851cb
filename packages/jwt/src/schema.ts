import type { SchemaDefinition } from "@latchkey/core";

/**
 * The `jwks` table, column for column the reference's: the row id is the key's `kid`,
 * `publicKey` the public JWK as JSON text, `privateKey` the private JWK (encrypted unless
 * `disablePrivateKeyEncryption`), `alg`/`crv` nullable for rows written before they existed.
 */
export const jwtSchema = {
  jwks: {
    fields: {
      publicKey: { type: "string", required: true },
      privateKey: { type: "string", required: true },
      createdAt: { type: "date", required: true },
      expiresAt: { type: "date", required: false },
      alg: { type: "string", required: false },
      crv: { type: "string", required: false },
    },
  },
} satisfies SchemaDefinition;

/** One `jwks` row as read from the database. */
export interface JwkRow {
  id: string;
  publicKey: string;
  privateKey: string;
  createdAt: Date;
  expiresAt?: Date | null;
  alg?: string | null;
  crv?: string | null;
}

/** A new key as the plugin hands it to storage: a `jwks` row without its id. */
export type NewJwkRow = Omit<JwkRow, "id" | "expiresAt" | "alg" | "crv"> & {
  expiresAt?: Date;
  alg: string;
  crv?: string;
};

/** The logical fields of the `jwks` table. */
export type JwkField = keyof (typeof jwtSchema)["jwks"]["fields"];

/** The reference's `schema` option: another table name, other column names. */
export interface JwtSchemaOptions {
  jwks?: { modelName?: string | undefined; fields?: Partial<Record<JwkField, string>> | undefined } | undefined;
}

/** The table with the `schema` option's renames applied (the reference's `mergeSchema`). */
export function resolveJwtSchema(options: JwtSchemaOptions | undefined): SchemaDefinition {
  const override = options?.jwks;
  if (!override) return jwtSchema;
  const fields: SchemaDefinition[string]["fields"] = {};
  for (const [key, field] of Object.entries(jwtSchema.jwks.fields)) {
    const column = override.fields?.[key as JwkField];
    fields[key] = column ? { ...field, fieldName: column } : field;
  }
  return { jwks: { fields, ...(override.modelName ? { modelName: override.modelName } : {}) } };
}
