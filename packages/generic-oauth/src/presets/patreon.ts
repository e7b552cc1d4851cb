import type { GenericOAuthConfig } from "../options.js";
import { fetchProfileJSON } from "../profile.js";
import { passthrough, type BaseOAuthProviderOptions, type PresetEndpointOptions } from "./base.js";

/** Options of {@link patreon}. */
export interface PatreonOptions extends BaseOAuthProviderOptions, PresetEndpointOptions {}

const IDENTITY_FIELDS = "fields[user]=email,full_name,image_url,is_email_verified";

/**
 * Patreon (plain OAuth 2.0). The profile is the JSON:API identity document, `data.id` and
 * `data.attributes`; accounts are keyed by `data.id`, `is_email_verified` is Patreon's own.
 */
export function patreon(options: PatreonOptions): GenericOAuthConfig<"patreon"> {
  const userInfoUrl =
    options.userInfoUrl ?? `https://www.patreon.com/api/oauth2/v2/identity?${IDENTITY_FIELDS}`;
  return {
    providerId: "patreon",
    authorizationUrl: options.authorizationUrl ?? "https://www.patreon.com/oauth2/authorize",
    tokenUrl: options.tokenUrl ?? "https://www.patreon.com/api/oauth2/token",
    userInfoUrl,
    ...passthrough(options, ["identity[email]"]),
    accountSubject: ({ profile }) => profile.id ?? "",
    async getUserInfo(tokens) {
      const body = await fetchProfileJSON(userInfoUrl, { authorization: `Bearer ${tokens.accessToken}` });
      const data = body?.data as { id?: unknown; attributes?: Record<string, unknown> } | undefined;
      if (!data || typeof data !== "object") return null;
      const attributes = data.attributes ?? {};
      return {
        id: typeof data.id === "string" || typeof data.id === "number" ? data.id : undefined,
        name: attributes.full_name as string | undefined,
        email: attributes.email as string | undefined,
        image: attributes.image_url as string | undefined,
        emailVerified: attributes.is_email_verified === true,
      };
    },
  };
}
