import * as v from "valibot";
import { isReservedAuthorizationParam, RESERVED_AUTHORIZATION_PARAMS } from "../oauth2/authorization-url.js";

/**
 * `additionalParams`: extra authorization-URL parameters. A reserved key is refused here
 * (400 `VALIDATION_ERROR`, the reference's message) and skipped again by the URL builder.
 */
export const additionalParamsSchema = v.optional(
  v.pipe(
    v.record(v.string(), v.string()),
    v.check(
      (params) => !Object.keys(params).some(isReservedAuthorizationParam),
      `additionalParams cannot include reserved OAuth parameters: ${RESERVED_AUTHORIZATION_PARAMS.join(", ")}`,
    ),
  ),
);

/** The reference's built-in social provider ids (`socialProviderList`), for its `provider` union. */
// prettier-ignore
const REFERENCE_PROVIDER_IDS = [
  "apple", "atlassian", "cloudflare", "cognito", "discord", "facebook", "figma", "github", "microsoft",
  "google", "huggingface", "slack", "spotify", "twitch", "twitter", "dropbox", "kick", "linear",
  "linkedin", "gitlab", "tiktok", "reddit", "roblox", "salesforce", "vk", "zoom", "notion", "kakao",
  "naver", "line", "paybin", "paypal", "polar", "railway", "vercel", "wechat",
] as const;

/** Fields `/sign-in/social` and `/link-social` share (the reference's names). */
export const socialRedirectFields = {
  callbackURL: v.optional(v.string()),
  errorCallbackURL: v.optional(v.string()),
  // The reference's `SocialProviderListEnum`: its built-in provider ids, or any string. Any
  // string passes either way; declared as the same union so a missing or non-string value is
  // "[body.provider] Invalid input", as there.
  provider: v.union([v.picklist(REFERENCE_PROVIDER_IDS), v.string()]),
  disableRedirect: v.optional(v.boolean()),
  scopes: v.optional(v.array(v.string())),
  requestSignUp: v.optional(v.boolean()),
  loginHint: v.optional(v.string()),
  additionalParams: additionalParamsSchema,
  additionalData: v.optional(v.record(v.string(), v.unknown())),
};

/** The `idToken` of the ID-token flows: the token and what the client got with it. */
export const idTokenFields = {
  token: v.string(),
  nonce: v.optional(v.string()),
  accessToken: v.optional(v.string()),
  refreshToken: v.optional(v.string()),
};
