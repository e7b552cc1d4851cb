import type { SchemaDefinition } from "@latchkey/core";

/** The `user.isAnonymous` column, as the reference declares it (clients cannot set it). */
export const anonymousSchema = {
  user: {
    fields: {
      isAnonymous: { type: "boolean", required: false, input: false, defaultValue: false },
    },
  },
} satisfies SchemaDefinition;
