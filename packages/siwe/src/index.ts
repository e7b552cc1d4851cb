import { applicationCallbacks, type LatchkeyPlugin, type SchemaDefinition } from "@latchkey/core";
import { SIWE_ERROR_CODES } from "./error-codes.js";
import type { SIWEPluginOptions } from "./options.js";
import { nonceEndpoint } from "./routes/nonce.js";
import { verifyEndpoint } from "./routes/verify.js";
import { siweSchema } from "./schema.js";

export { SIWE_ERROR_CODES } from "./error-codes.js";
export { checksumAddress } from "./checksum-address.js";
export { parseSiweMessage, type SiweMessageFields } from "./parse-message.js";
export type { Cacao, SIWEPluginOptions, SiweVerifyMessageArgs } from "./options.js";
export type { WalletAddress } from "./schema.js";

type SiweEndpoints = {
  getSiweNonce: ReturnType<typeof nonceEndpoint>;
  getNonce: ReturnType<typeof nonceEndpoint>;
  verifySiweMessage: ReturnType<typeof verifyEndpoint>;
};

/** The plugin object `siwe()` returns. */
export interface SiwePlugin extends LatchkeyPlugin<"siwe", SiweEndpoints> {
  id: "siwe";
  options: SIWEPluginOptions;
}

/**
 * Sign-In with Ethereum (EIP-4361): `POST /siwe/nonce` issues a nonce, the wallet signs a
 * message carrying it, `POST /siwe/verify` checks the message and signature and signs the
 * wallet's user in (creating them on first use).
 *
 * @example
 * const auth = createAuth({
 *   ...options,
 *   plugins: [siwe({ domain: "example.com", getNonce: async () => generateSiweNonce(), verifyMessage: ({ message, signature, address }) => verifyMessage({ address, message, signature }) })],
 * });
 */
export function siwe(given: SIWEPluginOptions): SiwePlugin {
  // The application's callbacks may refuse with an APIError of their own code.
  const options = given && applicationCallbacks(given, ["getNonce", "verifyMessage", "ensLookup"]);
  if (
    !options?.domain ||
    typeof options.getNonce !== "function" ||
    typeof options.verifyMessage !== "function"
  )
    throw new TypeError("siwe: the options domain, getNonce and verifyMessage are required.");
  return {
    id: "siwe",
    endpoints: {
      getSiweNonce: nonceEndpoint("/siwe/nonce", options),
      getNonce: nonceEndpoint("/siwe/get-nonce", options),
      verifySiweMessage: verifyEndpoint(options),
    },
    schema: withRenames(siweSchema, options.schema?.walletAddress),
    errorCodes: SIWE_ERROR_CODES,
    options,
  };
}

/** The table with the `schema` option's table and column names applied. */
function withRenames(
  schema: typeof siweSchema,
  renames: { modelName?: string | undefined; fields?: Record<string, string> | undefined } | undefined,
): SchemaDefinition {
  if (!renames) return schema;
  const fields = Object.fromEntries(
    Object.entries(schema.walletAddress.fields).map(([name, field]) => {
      const column = renames.fields?.[name];
      return [name, column ? { ...field, fieldName: column } : field];
    }),
  );
  return { walletAddress: { ...(renames.modelName ? { modelName: renames.modelName } : {}), fields } };
}
