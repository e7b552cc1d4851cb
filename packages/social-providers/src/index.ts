// @latchkey/social-providers: the social sign-in providers of Better Auth 1.7.6, one module
// each. Import the ones you use; `socialProviderFactories` lets reference-style configs build them.
export {
  defineProvider,
  type ProviderFactory,
  type ProviderSpec,
  type ProfileContext,
} from "./define-provider.js";
export { socialProviderFactories, type NamedProviderFactory } from "./plugin.js";
export { placeholderEmail } from "./placeholder-email.js";
export { allProviders } from "./all-providers.js";
export type { SocialProviderOptions } from "./options.js";
// providers, one module each
export { apple, type AppleProfile, type AppleOptions } from "./providers/apple.js";
export { atlassian, type AtlassianProfile, type AtlassianOptions } from "./providers/atlassian.js";
export { cloudflare, type CloudflareProfile, type CloudflareOptions } from "./providers/cloudflare.js";
export { cognito, type CognitoProfile, type CognitoOptions } from "./providers/cognito.js";
export { discord, type DiscordProfile, type DiscordOptions } from "./providers/discord.js";
export { dropbox, type DropboxProfile, type DropboxOptions } from "./providers/dropbox.js";
export { facebook, type FacebookProfile, type FacebookOptions } from "./providers/facebook.js";
export { figma, type FigmaProfile, type FigmaOptions } from "./providers/figma.js";
export { github, type GitHubProfile, type GitHubOptions } from "./providers/github.js";
export { gitlab, type GitlabProfile, type GitlabOptions } from "./providers/gitlab.js";
export { hostedDomainAllowed, google, type GoogleProfile, type GoogleOptions } from "./providers/google.js";
export { huggingface, type HuggingFaceProfile, type HuggingFaceOptions } from "./providers/huggingface.js";
export { kakao, type KakaoProfile, type KakaoOptions } from "./providers/kakao.js";
export { kick, type KickProfile, type KickOptions } from "./providers/kick.js";
export { line, type LineProfile, type LineOptions } from "./providers/line.js";
export { linear, type LinearProfile, type LinearOptions } from "./providers/linear.js";
export { linkedin, type LinkedInProfile, type LinkedInOptions } from "./providers/linkedin.js";
export {
  MICROSOFT_CONSUMER_TENANT_ID,
  microsoft,
  type MicrosoftEntraIDProfile,
  type MicrosoftOptions,
} from "./providers/microsoft.js";
export { naver, type NaverProfile, type NaverOptions } from "./providers/naver.js";
export { notion, type NotionProfile, type NotionOptions } from "./providers/notion.js";
export { paybin, type PaybinProfile, type PaybinOptions } from "./providers/paybin.js";
export { paypal, type PayPalProfile, type PayPalOptions } from "./providers/paypal.js";
export { polar, type PolarProfile, type PolarOptions } from "./providers/polar.js";
export { railway, type RailwayProfile, type RailwayOptions } from "./providers/railway.js";
export { reddit, type RedditProfile, type RedditOptions } from "./providers/reddit.js";
export { roblox, type RobloxProfile, type RobloxOptions } from "./providers/roblox.js";
export { salesforce, type SalesforceProfile, type SalesforceOptions } from "./providers/salesforce.js";
export { slack, type SlackProfile, type SlackOptions } from "./providers/slack.js";
export { spotify, type SpotifyProfile, type SpotifyOptions } from "./providers/spotify.js";
export { tiktok, type TiktokProfile, type TiktokOptions } from "./providers/tiktok.js";
export { twitch, type TwitchProfile, type TwitchOptions } from "./providers/twitch.js";
export { twitter, type TwitterProfile, type TwitterOption } from "./providers/twitter.js";
export { vercel, type VercelProfile, type VercelOptions } from "./providers/vercel.js";
export { vk, type VkProfile, type VkOption } from "./providers/vk.js";
export { wechat, type WeChatProfile, type WeChatOptions, type WeChatTokens } from "./providers/wechat.js";
export { zoom, type ZoomProfile, type ZoomOptions } from "./providers/zoom.js";
// the Microsoft account-id migration (spec, Directory-identity provider 5)
export {
  oidOfGraphId,
  migrateMicrosoftAccountIds,
  type MigrateMicrosoftAccountIdsOptions,
  type UnresolvedReason,
  type MicrosoftMigrationReport,
} from "./migrate-microsoft-account-ids.js";
