import { defineProvider } from "../define-provider.js";
import { bearer, fetchJSON } from "../fetch-json.js";
import type { SocialProviderOptions } from "../options.js";

/** The Notion user who installed the integration (`bot.owner.user` of `GET /v1/users/me`). */
export interface NotionProfile extends Record<string, unknown> {
  object: "user";
  id: string;
  type: "person";
  name?: string;
  avatar_url?: string | null;
  person?: { email?: string };
}

/** `GET /v1/users/me` with an OAuth token: the integration's bot user, owned by a person. */
interface NotionBot {
  bot?: { owner?: { type?: string; user?: NotionProfile } };
}

/** Options of the Notion provider (the reference's, plus `endpoints`). */
export type NotionOptions = SocialProviderOptions<NotionProfile>;

/** The API version the profile call pins (Notion requires the header). */
const NOTION_VERSION = "2022-06-28";

/**
 * Notion. Endpoints: `authorization`, `token`, `userInfo` (`/v1/users/me`). No default scopes;
 * always asks `owner=user` (a caller cannot change it), forwards `login_hint`, no PKCE or prompt.
 * The token endpoint takes HTTP Basic client authentication, for refreshes as well (the
 * reference posts the secret in the form when refreshing; Notion documents Basic for both).
 * The profile call, pinned to `Notion-Version: 2022-06-28`, answers with the integration's bot;
 * the user is its owner, and an owner that is a workspace, not a person, fails the sign-in.
 * The account id and the profile (`data`) are the owner's; the email is never verified.
 */
export const notion = defineProvider<NotionProfile, NotionOptions>({
  id: "notion",
  name: "Notion",
  endpoints: {
    authorization: "https://api.notion.com/v1/oauth/authorize",
    token: "https://api.notion.com/v1/oauth/token",
    userInfo: "https://api.notion.com/v1/users/me",
  },
  scopes: [],
  loginHint: true,
  forwardPrompt: false,
  tokenAuth: "client_secret_basic",
  async profile({ tokens, endpoint }) {
    const auth = bearer(tokens.accessToken);
    if (!auth) return null;
    const me = await fetchJSON<NotionBot>(endpoint("userInfo"), {
      headers: { ...auth, "notion-version": NOTION_VERSION },
    });
    const user = me?.bot?.owner?.user;
    return user && typeof user.id === "string" ? user : null;
  },
  user: (profile) => ({
    name: profile.name || "",
    email: profile.person?.email || null,
    image: profile.avatar_url ?? undefined,
    emailVerified: false,
  }),
  subject: (profile) => profile.id,
  customize(provider) {
    const build = provider.createAuthorizationURL.bind(provider);
    provider.createAuthorizationURL = async (data) => {
      const url = await build(data);
      // The reference sets owner=user after the caller's parameters: the sign-in is a person's.
      url.searchParams.set("owner", "user");
      return url;
    };
  },
});
