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
// providers (keep sorted)
export { discord, type DiscordOptions, type DiscordProfile } from "./providers/discord.js";
export { github, type GitHubOptions, type GitHubProfile } from "./providers/github.js";
