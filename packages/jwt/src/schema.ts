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
