import { defineProvider } from "../define-provider.js";
import { bearer, fetchJSON } from "../fetch-json.js";
import type { SocialProviderOptions } from "../options.js";

/** The GitHub user object (`GET /user`). */
export interface GitHubProfile extends Record<string, unknown> {
  id: number;
  login: string;
  name: string | null;
  email: string | null;
  avatar_url: string;
}

interface GitHubEmail {
  email: string;
  primary: boolean;
  verified: boolean;
}

export type GitHubOptions = SocialProviderOptions<GitHubProfile>;

/** GitHub's REST API refuses requests without a User-Agent. */
const USER_AGENT = { "user-agent": "latchkey" };

/** Whether GitHub reported the chosen address verified; kept beside the profile, which stays GitHub's own. */
const verified = new WeakMap<GitHubProfile, boolean>();

/**
 * GitHub. Endpoints: `authorization`, `token`, `userInfo` (`/user`), `emails` (`/user/emails`).
 * Sends PKCE and forwards `login_hint` (spec, Social sign-in 9). The email is the profile's
 * public one, else the primary address; it counts as verified only when GitHub says so for
 * that very address.
 */
export const github = defineProvider<GitHubProfile, GitHubOptions>({
  id: "github",
  name: "GitHub",
  endpoints: {
    authorization: "https://github.com/login/oauth/authorize",
    token: "https://github.com/login/oauth/access_token",
    userInfo: "https://api.github.com/user",
    emails: "https://api.github.com/user/emails",
  },
  scopes: ["read:user", "user:email"],
  pkce: true,
  loginHint: true,
  async profile({ tokens, endpoint }) {
    const auth = bearer(tokens.accessToken);
    if (!auth) return null;
    const headers = { ...auth, ...USER_AGENT };
    const profile = await fetchJSON<GitHubProfile>(endpoint("userInfo"), { headers });
    if (!profile || profile.id === undefined) return null;
    const emails = await fetchJSON<GitHubEmail[]>(endpoint("emails"), { headers });
    const list = Array.isArray(emails) ? emails : [];
    if (!profile.email) profile.email = (list.find((e) => e.primary) ?? list[0])?.email ?? null;
    verified.set(
      profile,
      list.some((e) => e.email === profile.email && e.verified === true),
    );
    return profile;
  },
  user: (profile) => ({
    name: profile.name || profile.login || "",
    email: profile.email,
    image: profile.avatar_url,
    emailVerified: verified.get(profile) === true,
  }),
  subject: (profile) => profile.id,
});
