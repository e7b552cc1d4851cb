import { isReservedAuthorizationParam, RESERVED_AUTHORIZATION_PARAMS } from "@latchkey/core";
import * as v from "valibot";
import { additionalBodyEntries, type SSOProviderAdditionalFields } from "../additional-fields.js";

const url = v.pipe(v.string(), v.url());
const authMethod = v.picklist(["client_secret_basic", "client_secret_post", "private_key_jwt"]);

/** A JSON object, not an array (valibot's `object` lets arrays through). */
const plainObject = v.custom<Record<string, unknown>>(
  (input) => typeof input === "object" && input !== null && !Array.isArray(input),
  "Invalid type: Expected Object",
);

/** `mapping`: which claim fills which user field. */
export const mappingSchema = v.object({
  id: v.optional(v.string()),
  email: v.optional(v.string()),
  emailVerified: v.optional(v.string()),
  name: v.optional(v.string()),
  image: v.optional(v.string()),
  extraFields: v.optional(v.record(v.string(), v.string())),
});

/** The `oidcConfig` of a registration, as the reference accepts it. */
export const oidcConfigSchema = v.object({
  clientId: v.string(),
  clientSecret: v.optional(v.string()),
  authorizationEndpoint: v.optional(url),
  tokenEndpoint: v.optional(url),
  userInfoEndpoint: v.optional(url),
  tokenEndpointAuthentication: v.optional(authMethod),
  privateKeyId: v.optional(v.string()),
  privateKeyAlgorithm: v.optional(v.string()),
  jwksEndpoint: v.optional(url),
  discoveryEndpoint: v.optional(url),
  skipDiscovery: v.optional(v.boolean()),
  scopes: v.optional(v.array(v.string())),
  pkce: v.optional(v.boolean()),
  overrideUserInfo: v.optional(v.boolean()),
  mapping: v.optional(v.pipe(plainObject, mappingSchema)),
});

/** `POST /sso/register`. */
export const registerBody = v.object({
  providerId: v.pipe(v.string(), v.minLength(1)),
  issuer: url,
  domain: v.pipe(v.string(), v.minLength(1)),
  // The object schema first, so a missing `clientId` is named as zod names it; arrays refused after.
  oidcConfig: v.optional(
    v.pipe(
      oidcConfigSchema,
      v.check((input) => !Array.isArray(input), "Invalid input: expected object, received array"),
    ),
  ),
  samlConfig: v.optional(v.record(v.string(), v.unknown())),
  organizationId: v.optional(v.string()),
  overrideUserInfo: v.optional(v.boolean()),
});

/** `POST /sso/update-provider`: the provider and the fields to change. */
export const updateBody = v.object({
  providerId: v.pipe(v.string(), v.minLength(1)),
  issuer: v.optional(url),
  domain: v.optional(v.pipe(v.string(), v.minLength(1))),
  oidcConfig: v.optional(v.pipe(plainObject, v.partial(oidcConfigSchema))),
});

/** `registerBody` or `updateBody` with the table's additional fields (typed as the plain one; read them from the body as a record). */
export function withAdditionalFields<S extends typeof registerBody | typeof updateBody>(
  schema: S,
  fields: SSOProviderAdditionalFields,
): S {
  if (!Object.keys(fields).length) return schema;
  return v.object({
    ...schema.entries,
    ...additionalBodyEntries(fields, schema === updateBody),
  }) as unknown as S;
}

/** `{ providerId }` bodies and queries. */
export const providerIdSchema = v.object({ providerId: v.pipe(v.string(), v.minLength(1)) });

/** `additionalParams` of `/sign-in/sso`: a reserved OAuth parameter is a 400 `VALIDATION_ERROR`, as core's social sign-in answers it. */
export const additionalParamsSchema = v.optional(
  v.pipe(
    v.record(v.string(), v.string()),
    v.check(
      (params) => !Object.keys(params).some(isReservedAuthorizationParam),
      `additionalParams cannot include reserved OAuth parameters: ${RESERVED_AUTHORIZATION_PARAMS.join(", ")}`,
    ),
  ),
);
