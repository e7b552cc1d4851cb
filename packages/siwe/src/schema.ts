import type { SchemaDefinition } from "@latchkey/core";

/**
 * The `walletAddress` table, as the reference declares it: one row per (address, chain) a user
 * signed in with; `address` in EIP-55 form; the first wallet of a user is primary.
 */
export const siweSchema = {
  walletAddress: {
    fields: {
      userId: { type: "string", required: true, index: true, references: { model: "user", field: "id" } },
      address: { type: "string", required: true },
      chainId: { type: "number", required: true },
      isPrimary: { type: "boolean", defaultValue: false },
      createdAt: { type: "date", required: true },
    },
  },
} satisfies SchemaDefinition;

/** One `walletAddress` row. */
export interface WalletAddress {
  id: string;
  userId: string;
  address: string;
  chainId: number;
  isPrimary: boolean;
  createdAt: Date;
}
