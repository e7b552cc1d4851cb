import { afterEach, describe, expect, it, vi } from "vitest";
import type { OAuthProvider } from "@latchkey/core";
import { atlassian } from "../src/providers/atlassian.ts";
import { cloudflare } from "../src/providers/cloudflare.ts";
import { dropbox } from "../src/providers/dropbox.ts";
import { figma } from "../src/providers/figma.ts";
import { gitlab } from "../src/providers/gitlab.ts";
import { huggingface } from "../src/providers/huggingface.ts";
import { kick } from "../src/providers/kick.ts";
import { linear } from "../src/providers/linear.ts";
import { naver } from "../src/providers/naver.ts";
import { notion } from "../src/providers/notion.ts";
import { paybin } from "../src/providers/paybin.ts";
import { polar } from "../src/providers/polar.ts";
import { railway } from "../src/providers/railway.ts";
import { reddit } from "../src/providers/reddit.ts";
import { roblox } from "../src/providers/roblox.ts";
import { salesforce } from "../src/providers/salesforce.ts";
import { slack } from "../src/providers/slack.ts";
import { spotify } from "../src/providers/spotify.ts";
import { tiktok } from "../src/providers/tiktok.ts";
import { twitch } from "../src/providers/twitch.ts";
import { twitter } from "../src/providers/twitter.ts";
import { vercel } from "../src/providers/vercel.ts";
import { vk } from "../src/providers/vk.ts";
import { wechat } from "../src/providers/wechat.ts";
import { zoom } from "../src/providers/zoom.ts";
import { CLIENT } from "./support/flow.ts";

interface Defaults {
  provider: OAuthProvider<never> | OAuthProvider;
  authorization: string;
  token: string;
  /** The first profile request (origin + path); null where the ID token is the profile. */
  profile: string | null;
  scope: string | null;
  pkce: boolean;
  loginHint: boolean;
  /** Whether the configured `prompt: "consent"` is sent. */
  prompt: boolean;
  /** The parameter naming the client in the authorization request. @default "client_id" */
  clientParam?: string;
}

// Every provider is built with `prompt: "consent"` to show whether the option is forwarded.
const WITH = { ...CLIENT, prompt: "consent" as const };

/** Facts read from the reference's dist/social-providers/<id>.mjs (v1.7.6). */
const DEFAULTS: Record<string, Defaults> = {
  twitter: {
    provider: twitter(WITH),
    authorization: "https://x.com/i/oauth2/authorize",
    token: "https://api.x.com/2/oauth2/token",
    profile: "https://api.x.com/2/users/me",
    scope: "users.read tweet.read offline.access users.email",
    pkce: true,
    loginHint: false,
    prompt: false,
  },
  tiktok: {
    provider: tiktok({ clientKey: "client-key-1", clientSecret: CLIENT.clientSecret, prompt: "consent" }),
    authorization: "https://www.tiktok.com/v2/auth/authorize",
    token: "https://open.tiktokapis.com/v2/oauth/token/",
    profile: "https://open.tiktokapis.com/v2/user/info/",
    scope: "user.info.profile",
    pkce: false,
    loginHint: false,
    prompt: false,
    clientParam: "client_key",
  },
  roblox: {
    provider: roblox(WITH),
    authorization: "https://apis.roblox.com/oauth/v1/authorize",
    token: "https://apis.roblox.com/oauth/v1/token",
    profile: "https://apis.roblox.com/oauth/v1/userinfo",
    scope: "openid profile",
    pkce: false,
    loginHint: false,
    prompt: true,
  },
  wechat: {
    provider: wechat(WITH),
    authorization: "https://open.weixin.qq.com/connect/qrconnect",
    token: "https://api.weixin.qq.com/sns/oauth2/access_token",
    profile: null, // needs the token answer's openid first; covered in wechat.test.ts
    scope: "snsapi_login",
    pkce: false,
    loginHint: false,
    prompt: false,
    clientParam: "appid",
  },
  salesforce: {
    provider: salesforce(WITH),
    authorization: "https://login.salesforce.com/services/oauth2/authorize",
    token: "https://login.salesforce.com/services/oauth2/token",
    profile: "https://login.salesforce.com/services/oauth2/userinfo",
    scope: "openid email profile",
    pkce: true,
    loginHint: false,
    prompt: false,
  },
  vk: {
    provider: vk(WITH),
    authorization: "https://id.vk.com/authorize",
    token: "https://id.vk.com/oauth2/auth",
    profile: "https://id.vk.com/oauth2/user_info",
    scope: "email phone",
    pkce: true,
    loginHint: false,
    prompt: false,
  },
  naver: {
    provider: naver(WITH),
    authorization: "https://nid.naver.com/oauth2.0/authorize",
    token: "https://nid.naver.com/oauth2.0/token",
    profile: "https://openapi.naver.com/v1/nid/me",
    scope: "profile email",
    pkce: false,
    loginHint: false,
    prompt: false,
  },
  notion: {
    provider: notion(WITH),
    authorization: "https://api.notion.com/v1/oauth/authorize",
    token: "https://api.notion.com/v1/oauth/token",
    profile: "https://api.notion.com/v1/users/me",
    scope: null,
    pkce: false,
    loginHint: true,
    prompt: false,
  },
  zoom: {
    provider: zoom(WITH),
    authorization: "https://zoom.us/oauth/authorize",
    token: "https://zoom.us/oauth/token",
    profile: "https://api.zoom.us/v2/users/me",
    scope: null,
    pkce: true,
    loginHint: false,
    prompt: false,
  },
  gitlab: {
    provider: gitlab(WITH),
    authorization: "https://gitlab.com/oauth/authorize",
    token: "https://gitlab.com/oauth/token",
    profile: "https://gitlab.com/api/v4/user",
    scope: "read_user",
    pkce: true,
    loginHint: true,
    prompt: false,
  },
  reddit: {
    provider: reddit(WITH),
    authorization: "https://www.reddit.com/api/v1/authorize",
    token: "https://www.reddit.com/api/v1/access_token",
    profile: "https://oauth.reddit.com/api/v1/me",
    scope: "identity",
    pkce: false,
    loginHint: false,
    prompt: false,
  },
  twitch: {
    provider: twitch(WITH),
    authorization: "https://id.twitch.tv/oauth2/authorize",
    token: "https://id.twitch.tv/oauth2/token",
    profile: null,
    scope: "user:read:email openid",
    pkce: false,
    loginHint: false,
    prompt: false,
  },
  spotify: {
    provider: spotify(WITH),
    authorization: "https://accounts.spotify.com/authorize",
    token: "https://accounts.spotify.com/api/token",
    profile: "https://api.spotify.com/v1/me",
    scope: "user-read-email",
    pkce: true,
    loginHint: false,
    prompt: false,
  },
  atlassian: {
    provider: atlassian(WITH),
    authorization: "https://auth.atlassian.com/authorize",
    token: "https://auth.atlassian.com/oauth/token",
    profile: "https://api.atlassian.com/me",
    scope: "read:jira-user offline_access",
    pkce: true,
    loginHint: false,
    prompt: true,
  },
  cloudflare: {
    provider: cloudflare(WITH),
    authorization: "https://dash.cloudflare.com/oauth2/auth",
    token: "https://dash.cloudflare.com/oauth2/token",
    profile: "https://api.cloudflare.com/client/v4/user",
    scope: "user-details.read",
    pkce: true,
    loginHint: false,
    prompt: false,
  },
  figma: {
    provider: figma(WITH),
    authorization: "https://www.figma.com/oauth",
    token: "https://api.figma.com/v1/oauth/token",
    profile: "https://api.figma.com/v1/me",
    scope: "current_user:read",
    pkce: true,
    loginHint: false,
    prompt: false,
  },
  huggingface: {
    provider: huggingface(WITH),
    authorization: "https://huggingface.co/oauth/authorize",
    token: "https://huggingface.co/oauth/token",
    profile: "https://huggingface.co/oauth/userinfo",
    scope: "openid profile email",
    pkce: true,
    loginHint: false,
    prompt: false,
  },
  slack: {
    provider: slack(WITH),
    authorization: "https://slack.com/openid/connect/authorize",
    token: "https://slack.com/api/openid.connect.token",
    profile: "https://slack.com/api/openid.connect.userInfo",
    scope: "openid profile email",
    pkce: false,
    loginHint: false,
    prompt: false,
  },
  dropbox: {
    provider: dropbox(WITH),
    authorization: "https://www.dropbox.com/oauth2/authorize",
    token: "https://api.dropboxapi.com/oauth2/token",
    profile: "https://api.dropboxapi.com/2/users/get_current_account",
    scope: "account_info.read",
    pkce: true,
    loginHint: false,
    prompt: false,
  },
  kick: {
    provider: kick(WITH),
    authorization: "https://id.kick.com/oauth/authorize",
    token: "https://id.kick.com/oauth/token",
    profile: "https://api.kick.com/public/v1/users",
    scope: "user:read",
    pkce: true,
    loginHint: false,
    prompt: false,
  },
  linear: {
    provider: linear(WITH),
    authorization: "https://linear.app/oauth/authorize",
    token: "https://api.linear.app/oauth/token",
    profile: "https://api.linear.app/graphql",
    scope: "read",
    pkce: false,
    loginHint: true,
    prompt: false,
  },
  paybin: {
    provider: paybin(WITH),
    authorization: "https://idp.paybin.io/oauth2/authorize",
    token: "https://idp.paybin.io/oauth2/token",
    profile: null,
    scope: "openid email profile",
    pkce: true,
    loginHint: true,
    prompt: true,
  },
  polar: {
    provider: polar(WITH),
    authorization: "https://polar.sh/oauth2/authorize",
    token: "https://api.polar.sh/v1/oauth2/token",
    profile: "https://api.polar.sh/v1/oauth2/userinfo",
    scope: "openid profile email",
    pkce: true,
    loginHint: false,
    prompt: true,
  },
  railway: {
    provider: railway(WITH),
    authorization: "https://backboard.railway.com/oauth/auth",
    token: "https://backboard.railway.com/oauth/token",
    profile: "https://backboard.railway.com/oauth/me",
    scope: "openid email profile",
    pkce: true,
    loginHint: false,
    prompt: false,
  },
  vercel: {
    provider: vercel(WITH),
    authorization: "https://vercel.com/oauth/authorize",
    token: "https://api.vercel.com/login/oauth/token",
    profile: "https://api.vercel.com/login/oauth/userinfo",
    scope: null,
    pkce: true,
    loginHint: false,
    prompt: false,
  },
};

const path = (url: string | undefined): string | undefined => {
  if (!url) return url;
  const parsed = new URL(url);
  return parsed.origin + parsed.pathname;
};

describe("reference defaults (endpoints, scopes, PKCE, login_hint, prompt)", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it.each(Object.entries(DEFAULTS))("%s", async (id, facts) => {
    const { provider } = facts;
    expect(provider.id).toBe(id);
    const redirectURI = `http://localhost:3000/api/auth/callback/${id}`;
    const url = await provider.createAuthorizationURL({
      state: "state-1",
      codeVerifier: "v".repeat(43),
      redirectURI,
      loginHint: "user@example.com",
    });
    const q = url.searchParams;
    expect(url.origin + url.pathname).toBe(facts.authorization);
    expect(q.get("scope")).toBe(facts.scope);
    expect(q.has("code_challenge")).toBe(facts.pkce);
    expect(q.has("login_hint")).toBe(facts.loginHint);
    expect(q.has("prompt")).toBe(facts.prompt);
    expect(q.get(facts.clientParam ?? "client_id")).toBe(
      facts.clientParam === "client_key" ? "client-key-1" : CLIENT.clientId,
    );

    // The token and profile requests go to the reference's endpoints; the network itself is
    // replaced, so nothing leaves this machine.
    const requests: string[] = [];
    vi.stubGlobal("fetch", (input: RequestInfo | URL) => {
      requests.push(String(input instanceof Request ? input.url : input));
      return Promise.resolve(
        new Response(JSON.stringify({ access_token: "a", token_type: "Bearer" }), {
          headers: { "content-type": "application/json" },
        }),
      );
    });
    const tokens = await provider.validateAuthorizationCode({
      code: "code-1",
      codeVerifier: "v".repeat(43),
      redirectURI,
    });
    expect(path(requests[0])).toBe(facts.token);
    await provider.getUserInfo(tokens ?? { accessToken: "a" }).catch(() => null);
    expect(path(requests[1]) ?? null).toBe(facts.profile);
  });
});
