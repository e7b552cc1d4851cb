import type { GenericOAuthConfig } from "../options.js";
import { fetchProfileJSON } from "../profile.js";
import { passthrough, type BaseOAuthProviderOptions, type PresetEndpointOptions } from "./base.js";

/** Options of {@link yandex}. */
export interface YandexOptions extends BaseOAuthProviderOptions, PresetEndpointOptions {}

const str = (value: unknown): string | undefined =>
  typeof value === "string" && value !== "" ? value : undefined;

/**
 * Yandex ID (plain OAuth 2.0). The profile is `login.yandex.ru/info`, asked with Yandex's
 * `Authorization: OAuth <token>` scheme; accounts are keyed by `id`. A profile without an
 * email is refused; the email is never trusted as verified.
 */
export function yandex(options: YandexOptions): GenericOAuthConfig<"yandex"> {
  const userInfoUrl = options.userInfoUrl ?? "https://login.yandex.ru/info?format=json";
  return {
    providerId: "yandex",
    authorizationUrl: options.authorizationUrl ?? "https://oauth.yandex.com/authorize",
    tokenUrl: options.tokenUrl ?? "https://oauth.yandex.com/token",
    userInfoUrl,
    ...passthrough(options, ["login:info", "login:email", "login:avatar"]),
    accountSubject: ({ profile }) => profile.id ?? "",
    async getUserInfo(tokens) {
      const info = await fetchProfileJSON(userInfoUrl, { authorization: `OAuth ${tokens.accessToken}` });
      if (!info) return null;
      const emails = Array.isArray(info.emails) ? info.emails : [];
      const email = str(info.default_email) ?? str(emails[0]);
      if (!email) return null;
      const avatar = info.is_avatar_empty !== true ? str(info.default_avatar_id) : undefined;
      return {
        id: str(info.id),
        name: str(info.display_name) ?? str(info.real_name) ?? str(info.first_name) ?? str(info.login),
        email,
        emailVerified: false,
        image: avatar ? `https://avatars.yandex.net/get-yapic/${avatar}/islands-200` : undefined,
      };
    },
  };
}
