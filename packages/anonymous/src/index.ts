import { applicationCallbacks, type LatchkeyPlugin } from "@latchkey/core";
import { ANONYMOUS_ERROR_CODES } from "./error-codes.js";
import { linkAccountHook } from "./link-hook.js";
import type { AnonymousOptions } from "./options.js";
import { deleteAnonymousUser } from "./routes/delete-anonymous-user.js";
import { signInAnonymous } from "./routes/sign-in-anonymous.js";
import { anonymousSchema } from "./schema.js";

export { ANONYMOUS_ERROR_CODES, ANONYMOUS_ERROR_CODES as ERROR_CODES } from "./error-codes.js";
export type { AnonymousOptions, LinkAccountData } from "./options.js";

type AnonymousEndpoints = {
  signInAnonymous: ReturnType<typeof signInAnonymous>;
  deleteAnonymousUser: ReturnType<typeof deleteAnonymousUser>;
};

/** The plugin object `anonymous()` returns. */
export interface AnonymousPlugin extends LatchkeyPlugin<"anonymous", AnonymousEndpoints> {
  id: "anonymous";
  options: AnonymousOptions;
}

/**
 * Guest sign-in: `POST /sign-in/anonymous` makes a user with a generated address and
 * `isAnonymous: true`. When that browser later signs in or up another way, `onLinkAccount`
 * runs and the anonymous user is deleted.
 *
 * @example
 * const auth = createAuth({ ...options, plugins: [anonymous({ onLinkAccount: moveCart })] });
 */
export function anonymous(given: AnonymousOptions = {}): AnonymousPlugin {
  // The application's callbacks may refuse with an APIError of their own code.
  const options = applicationCallbacks(given, ["onLinkAccount", "generateRandomEmail", "generateName"]);
  const column = options.schema?.user?.fields?.isAnonymous;
  const isAnonymousField = anonymousSchema.user.fields.isAnonymous;
  return {
    id: "anonymous",
    endpoints: {
      signInAnonymous: signInAnonymous(options),
      deleteAnonymousUser: deleteAnonymousUser(options),
    },
    hooks: { after: [linkAccountHook(options)] },
    schema: column
      ? { user: { fields: { isAnonymous: { ...isAnonymousField, fieldName: column } } } }
      : anonymousSchema,
    errorCodes: ANONYMOUS_ERROR_CODES,
    options,
  };
}
