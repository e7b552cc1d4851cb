import type { NamedProviderFactory } from "./plugin.js";
import { apple } from "./providers/apple.js";
import { atlassian } from "./providers/atlassian.js";
import { cloudflare } from "./providers/cloudflare.js";
import { cognito } from "./providers/cognito.js";
import { discord } from "./providers/discord.js";
import { dropbox } from "./providers/dropbox.js";
import { facebook } from "./providers/facebook.js";
import { figma } from "./providers/figma.js";
import { github } from "./providers/github.js";
import { gitlab } from "./providers/gitlab.js";
import { google } from "./providers/google.js";
import { huggingface } from "./providers/huggingface.js";
import { kakao } from "./providers/kakao.js";
import { kick } from "./providers/kick.js";
import { line } from "./providers/line.js";
import { linear } from "./providers/linear.js";
import { linkedin } from "./providers/linkedin.js";
import { microsoft } from "./providers/microsoft.js";
import { naver } from "./providers/naver.js";
import { notion } from "./providers/notion.js";
import { paybin } from "./providers/paybin.js";
import { paypal } from "./providers/paypal.js";
import { polar } from "./providers/polar.js";
import { railway } from "./providers/railway.js";
import { reddit } from "./providers/reddit.js";
import { roblox } from "./providers/roblox.js";
import { salesforce } from "./providers/salesforce.js";
import { slack } from "./providers/slack.js";
import { spotify } from "./providers/spotify.js";
import { tiktok } from "./providers/tiktok.js";
import { twitch } from "./providers/twitch.js";
import { twitter } from "./providers/twitter.js";
import { vercel } from "./providers/vercel.js";
import { vk } from "./providers/vk.js";
import { wechat } from "./providers/wechat.js";
import { zoom } from "./providers/zoom.js";

/**
 * Every provider factory of this package, for `socialProviderFactories(allProviders)` when a
 * config names providers by id only. It pulls every provider into the bundle; list the ones
 * in use instead where size matters.
 */
export const allProviders: readonly NamedProviderFactory[] = [
  apple,
  atlassian,
  cloudflare,
  cognito,
  discord,
  dropbox,
  facebook,
  figma,
  github,
  gitlab,
  google,
  huggingface,
  kakao,
  kick,
  line,
  linear,
  linkedin,
  microsoft,
  naver,
  notion,
  paybin,
  paypal,
  polar,
  railway,
  reddit,
  roblox,
  salesforce,
  slack,
  spotify,
  tiktok,
  twitch,
  twitter,
  vercel,
  vk,
  wechat,
  zoom,
];
