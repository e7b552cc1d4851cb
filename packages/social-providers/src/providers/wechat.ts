import { boundedFetch, OAuthTokenError, toOAuth2Tokens, type OAuth2Tokens } from "@latchkey/core";
import { clientParamAuthorizationURL } from "../authorization-url.js";
import { defineProvider, requestedScopes } from "../define-provider.js";
import { fetchJSON } from "../fetch-json.js";
import { primaryClientId, type SocialProviderOptions } from "../options.js";
import { placeholderEmail } from "../placeholder-email.js";

/** WeChat's user info answer (`GET /sns/userinfo`). */
export interface WeChatProfile extends Record<string, unknown> {
  openid: string;
  unionid?: string;
  nickname?: string;
  sex?: number;
  province?: string;
  city?: string;
  country?: string;
  headimgurl?: string;
  privilege?: string[];
  email?: string;
}

/** Options of the WeChat provider (the reference's, plus `endpoints`). */
export interface WeChatOptions extends SocialProviderOptions<WeChatProfile> {
  /** The WeChat platform; only Website Applications (QR-code login) exist. @default "WebsiteApp" */
  platformType?: "WebsiteApp";
  /** Language of the QR-code login page. @default "cn" */
  lang?: "cn" | "en";
}

/** WeChat's tokens, with `openid` / `unionid` also at the top level as the reference returns them. */
export type WeChatTokens = OAuth2Tokens & { openid?: string; unionid?: string };

const DEFAULT_SCOPES = ["snsapi_login"];

/**
 * A WeChat token call: a GET with the parameters in the query, answering 200 with `errcode` on
 * failure. The error thrown carries only the numeric code (never the query, which holds the
 * secret). Scopes come comma-separated.
 */
async function wechatTokens(endpoint: string, params: Record<string, string>): Promise<WeChatTokens> {
  const url = new URL(endpoint);
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  const response = await boundedFetch(url.href, {
    method: "GET",
    headers: { accept: "application/json" },
  });
  const data: unknown = await response.json().catch(() => null);
  const json = typeof data === "object" && data !== null ? (data as Record<string, unknown>) : {};
  if (!response.ok || json.errcode || typeof json.access_token !== "string" || !json.access_token) {
    const code = typeof json.errcode === "number" ? `errcode_${json.errcode}` : "invalid_token_response";
    throw new OAuthTokenError(code, response.status);
  }
  const str = (value: unknown) => (typeof value === "string" && value ? value : undefined);
  return {
    ...toOAuth2Tokens(json),
    tokenType: "Bearer",
    scopes: str(json.scope)?.split(",") ?? [],
    openid: str(json.openid),
    unionid: str(json.unionid),
  };
}

/**
 * WeChat (Website Application QR-code login). Endpoints: `authorization` (`/connect/qrconnect`),
 * `token` (`/sns/oauth2/access_token`), `refresh` (`/sns/oauth2/refresh_token`), `userInfo`
 * (`/sns/userinfo`). Nothing here is standard OAuth: the client is `appid` (no `client_id`),
 * scopes are comma-joined, the authorization URL ends in `#wechat_redirect` and carries `lang`
 * (option, default `cn`); the token and refresh calls are GETs with `appid` and `secret` in the
 * query, failing with `errcode` in a 200 answer. The `openid` from the token answer identifies
 * the user at `/sns/userinfo`; the account id is `unionid` when WeChat sends one (stable across
 * an organisation's apps), else `openid`. WeChat shares no email: users get
 * `<unionid or openid>@wechat.placeholder.invalid`.
 */
export const wechat = defineProvider<WeChatProfile, WeChatOptions>({
  id: "wechat",
  name: "WeChat",
  endpoints: {
    authorization: "https://open.weixin.qq.com/connect/qrconnect",
    token: "https://api.weixin.qq.com/sns/oauth2/access_token",
    refresh: "https://api.weixin.qq.com/sns/oauth2/refresh_token",
    userInfo: "https://api.weixin.qq.com/sns/userinfo",
  },
  scopes: DEFAULT_SCOPES,
  async profile({ tokens, endpoint }) {
    const openid = (tokens as WeChatTokens).openid ?? tokens.raw?.openid;
    if (typeof openid !== "string" || !openid || !tokens.accessToken) return null;
    const url = new URL(endpoint("userInfo"));
    url.searchParams.set("access_token", tokens.accessToken);
    url.searchParams.set("openid", openid);
    url.searchParams.set("lang", "zh_CN");
    const profile = await fetchJSON<WeChatProfile & { errcode?: number }>(url.href);
    if (!profile || profile.errcode) return null;
    return typeof (profile.unionid || profile.openid) === "string" ? profile : null;
  },
  user: (profile) => ({
    name: profile.nickname || "",
    email: profile.email || placeholderEmail(profile.unionid || profile.openid, "wechat"),
    image: profile.headimgurl,
    emailVerified: false,
  }),
  subject: (profile) => profile.unionid || profile.openid,
  customize(provider, options, endpoint) {
    const appid = primaryClientId(options.clientId);
    if (!options.clientSecret) throw new TypeError("WeChat needs a clientSecret (the AppSecret).");
    const secret = options.clientSecret;
    provider.createAuthorizationURL = (data) => {
      const url = clientParamAuthorizationURL({
        endpoint: options.authorizationEndpoint ?? endpoint("authorization"),
        clientParam: "appid",
        clientValue: appid,
        scopes: requestedScopes(DEFAULT_SCOPES, options, data),
        redirectURI: options.redirectURI ?? data.redirectURI,
        state: data.state,
        additionalParams: { lang: options.lang ?? "cn", ...data.additionalParams },
      });
      // WeChat's documented suffix; the page refuses requests without it.
      url.hash = "wechat_redirect";
      return url;
    };
    provider.validateAuthorizationCode = ({ code }) =>
      wechatTokens(endpoint("token"), { appid, secret, code, grant_type: "authorization_code" });
    if (!options.refreshAccessToken) {
      // WeChat's refresh takes no secret.
      provider.refreshAccessToken = (refreshToken) =>
        wechatTokens(endpoint("refresh"), {
          appid,
          grant_type: "refresh_token",
          refresh_token: refreshToken,
        });
    }
  },
});
