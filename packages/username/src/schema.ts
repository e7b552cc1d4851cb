import type { SchemaDefinition } from "@latchkey/core";
import type { ResolvedUsernameOptions } from "./options.js";

/**
 * The user columns, as the reference stores them: `username` (optional text, unique, sortable,
 * so `varchar(255)` on MySQL) holds the normalised name, `displayUsername` (optional text) the
 * name as the user wrote it. Without `displayUsername: false` both exist.
 */
export function usernameSchema(options: ResolvedUsernameOptions): SchemaDefinition {
  return {
    user: {
      fields: {
        username: { type: "string", required: false, unique: true, sortable: true, fieldName: options.columns.username },
        ...(options.displayUsername
          ? { displayUsername: { type: "string", required: false, fieldName: options.columns.displayUsername } }
          : {}),
      },
    },
  };
}
