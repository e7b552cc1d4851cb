import { defineProvider } from "../define-provider.js";
import { bearer, fetchJSON } from "../fetch-json.js";
import type { SocialProviderOptions } from "../options.js";

/** GitLab's user object (`GET /api/v4/user`). */
export interface GitlabProfile extends Record<string, unknown> {
  id: number;
  username: string;
  name?: string | null;
  email: string;
  email_verified?: boolean;
  state: string;
  locked?: boolean;
  avatar_url?: string;
  web_url?: string;
}

/** Options of the GitLab provider (the reference's, plus `endpoints`). */
export interface GitlabOptions extends SocialProviderOptions<GitlabProfile> {
  /** Base URL of a self-managed GitLab, e.g. `https://gitlab.example.com`. @default "https://gitlab.com" */
  issuer?: string;
}

/** `base` + `path` with runs of slashes in the path collapsed (an issuer may end in `/`). */
const joinURL = (base: string, path: string): string =>
  `${base}${path}`
    .split("://")
    .map((part) => part.replace(/\/{2,}/g, "/"))
    .join("://");

/**
 * GitLab, gitlab.com or self-managed. Endpoints: `authorization` (`/oauth/authorize`), `token`
 * (`/oauth/token`), `userInfo` (`/api/v4/user`), all under `issuer` (default
 * `https://gitlab.com`). Sends PKCE and forwards `login_hint`; no prompt; the secret goes in the
 * form. Only active, unlocked users sign in: any other `state`, or `locked`, fails with
 * `unable_to_get_user_info`. Name is the full name, else the username.
 */
export const gitlab = defineProvider<GitlabProfile, GitlabOptions>({
  id: "gitlab",
  name: "Gitlab",
  endpoints: (options) => {
    const base = options.issuer || "https://gitlab.com";
    return {
      authorization: joinURL(base, "/oauth/authorize"),
      token: joinURL(base, "/oauth/token"),
      userInfo: joinURL(base, "/api/v4/user"),
    };
  },
  scopes: ["read_user"],
  pkce: true,
  loginHint: true,
  forwardPrompt: false,
  async profile({ tokens, endpoint }) {
    const headers = bearer(tokens.accessToken);
    const profile = headers && (await fetchJSON<GitlabProfile>(endpoint("userInfo"), { headers }));
    if (!profile || profile.id === undefined) return null;
    // Blocked, deactivated or locked accounts must not get a session.
    return profile.state === "active" && !profile.locked ? profile : null;
  },
  user: (profile) => ({
    name: profile.name ?? profile.username ?? "",
    email: profile.email,
    image: profile.avatar_url,
    emailVerified: profile.email_verified ?? false,
  }),
  subject: (profile) => profile.id,
});
