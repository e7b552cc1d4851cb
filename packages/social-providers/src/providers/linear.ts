import { defineProvider } from "../define-provider.js";
import { bearer, fetchJSON } from "../fetch-json.js";
import type { SocialProviderOptions } from "../options.js";

/** Linear's `viewer`: the user the token acts for. */
export interface LinearProfile extends Record<string, unknown> {
  id: string;
  name: string;
  email: string;
  avatarUrl?: string | null;
  active: boolean;
  createdAt: string;
  updatedAt: string;
}

/** Options of the Linear provider (the reference's, plus `endpoints`). */
export type LinearOptions = SocialProviderOptions<LinearProfile>;

/** The GraphQL document the profile call sends. */
const VIEWER_QUERY = "query { viewer { id name email avatarUrl active createdAt updatedAt } }";

/**
 * Linear. Endpoints: `authorization`, `token`, `userInfo` (`api.linear.app/graphql`). Scope
 * `read`; forwards `login_hint`; no PKCE or prompt; the secret goes in the form. The profile is
 * the GraphQL `viewer` (a JSON POST); an answer without one fails the sign-in. The email is
 * never treated as verified.
 */
export const linear = defineProvider<LinearProfile, LinearOptions>({
  id: "linear",
  name: "Linear",
  endpoints: {
    authorization: "https://linear.app/oauth/authorize",
    token: "https://api.linear.app/oauth/token",
    userInfo: "https://api.linear.app/graphql",
  },
  scopes: ["read"],
  loginHint: true,
  forwardPrompt: false,
  async profile({ tokens, endpoint }) {
    const auth = bearer(tokens.accessToken);
    if (!auth) return null;
    const answer = await fetchJSON<{ data?: { viewer?: LinearProfile | null } }>(endpoint("userInfo"), {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ query: VIEWER_QUERY }),
    });
    const viewer = answer?.data?.viewer;
    return viewer && typeof viewer.id === "string" ? viewer : null;
  },
  user: (profile) => ({
    name: profile.name || "",
    email: profile.email,
    image: profile.avatarUrl ?? undefined,
    emailVerified: false,
  }),
  subject: (profile) => profile.id,
});
