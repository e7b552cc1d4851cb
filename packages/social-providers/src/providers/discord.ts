import { defineProvider } from "../define-provider.js";
import { bearer, fetchJSON } from "../fetch-json.js";
import type { SocialProviderOptions } from "../options.js";

/** The Discord user object as `GET /users/@me` answers it. */
interface DiscordUser {
  id: string;
  username: string;
  global_name: string | null;
  discriminator: string;
  avatar: string | null;
  email?: string | null;
  verified?: boolean;
  [field: string]: unknown;
}

/** The Discord user object plus `image_url`, the avatar (or default avatar) URL. */
export interface DiscordProfile extends DiscordUser {
  image_url: string;
}

export interface DiscordOptions extends SocialProviderOptions<DiscordProfile> {
  /** Bot permissions, sent only when the `bot` scope is requested. */
  permissions?: number;
}

/**
 * The avatar URL Discord's CDN serves: the uploaded avatar (animated ones as gif), else the
 * default avatar, picked from the id under the new username system (discriminator "0") and
 * from the discriminator under the old one.
 */
function avatarURL(profile: DiscordUser): string {
  if (profile.avatar === null) {
    const index =
      profile.discriminator === "0"
        ? Number((BigInt(profile.id) >> 22n) % 6n)
        : Number.parseInt(profile.discriminator, 10) % 5;
    return `https://cdn.discordapp.com/embed/avatars/${index}.png`;
  }
  const format = profile.avatar.startsWith("a_") ? "gif" : "png";
  return `https://cdn.discordapp.com/avatars/${profile.id}/${profile.avatar}.${format}`;
}

/**
 * Discord. Endpoints: `authorization`, `token`, `userInfo`. Asks `prompt=none` by default
 * (Discord then skips the consent screen for returning users).
 */
export const discord = defineProvider<DiscordProfile, DiscordOptions>({
  id: "discord",
  name: "Discord",
  endpoints: {
    authorization: "https://discord.com/api/oauth2/authorize",
    token: "https://discord.com/api/oauth2/token",
    userInfo: "https://discord.com/api/users/@me",
  },
  scopes: ["identify", "email"],
  defaultPrompt: "none",
  authorizationParams: (options, data) => {
    const scopes = [...(options.scope ?? []), ...(data.scopes ?? [])];
    return scopes.includes("bot") && options.permissions !== undefined
      ? { permissions: String(options.permissions) }
      : {};
  },
  async profile({ tokens, endpoint }) {
    const headers = bearer(tokens.accessToken);
    const raw = headers && (await fetchJSON<DiscordUser>(endpoint("userInfo"), { headers }));
    if (!raw || typeof raw.id !== "string") return null;
    return { ...raw, image_url: avatarURL(raw) };
  },
  user: (profile) => ({
    name: profile.global_name || profile.username || "",
    email: profile.email ?? undefined,
    emailVerified: profile.verified === true,
    image: profile.image_url,
  }),
  subject: (profile) => profile.id,
});
