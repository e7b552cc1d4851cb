import type { SchemaDefinition } from "@latchkey/core";
import type { PhoneNumberOptions } from "./options.js";

/**
 * The user columns, as the reference declares them: `phoneNumber` (unique, optional) and
 * `phoneNumberVerified` (which clients cannot set), renamed by the `schema` option.
 */
export function phoneNumberSchema(options: PhoneNumberOptions): SchemaDefinition {
  const names = options.schema?.user?.fields;
  return {
    user: {
      fields: {
        phoneNumber: {
          type: "string",
          required: false,
          unique: true,
          sortable: true,
          returned: true,
          ...(names?.phoneNumber ? { fieldName: names.phoneNumber } : {}),
        },
        phoneNumberVerified: {
          type: "boolean",
          required: false,
          returned: true,
          input: false,
          ...(names?.phoneNumberVerified ? { fieldName: names.phoneNumberVerified } : {}),
        },
      },
    },
  };
}
