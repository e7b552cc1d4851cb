import type { AuthContext } from "../context.js";
import type { LatchkeyOptions } from "../options.js";
import type { OAuthFlow } from "./flow.js";
import type { SocialProviderConfig, SocialProviderFactory, SocialProviderValue } from "./options.js";
import type { OAuthProvider } from "./types.js";

/** A `socialProviders` entry resolved on first use (a function, or a config built by a factory). */
export interface LazySocialProvider {
  id: string;
  load(ctx: AuthContext): Promise<OAuthProvider | null>;
}

/**
 * One entry of `context.socialProviders`. Plugins add providers in `init`, as the reference's
 * generic OAuth plugin does: `return { context: { socialProviders: [mine, ...ctx.socialProviders] } }`.
 */
export type SocialProviderEntry = OAuthProvider | LazySocialProvider;

/** Whether a value is a provider object rather than a config. */
export const isOAuthProvider = (value: unknown): value is OAuthProvider =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as OAuthProvider).createAuthorizationURL === "function";

const isLazy = (entry: SocialProviderEntry): entry is LazySocialProvider =>
  !isOAuthProvider(entry) && typeof (entry as LazySocialProvider).load === "function";

/** Builds a provider from a config through the factory registered for its id (plugins fill the map in `init`). */
function fromConfig(ctx: AuthContext, id: string, config: SocialProviderConfig): OAuthProvider | null {
  if (config.enabled === false) return null;
  const factory = ctx.socialProviderFactories[id];
  if (!factory) {
    ctx.logger.error(`Social provider "${id}" is configured but no provider factory is registered for it.`);
    return null;
  }
  let provider: OAuthProvider;
  try {
    provider = factory(config);
  } catch (error) {
    // A config the provider cannot work with (say, no clientSecret where one is required) is
    // the operator's error: logged with the provider's reason, and the provider is not offered
    // (404 PROVIDER_NOT_FOUND), rather than a 500 on every sign-in it is asked for.
    ctx.logger.error(
      `Social provider "${id}" cannot be built from its config: ${error instanceof Error ? error.message : String(error)}`,
    );
    return null;
  }
  if (config.disableImplicitSignUp !== undefined)
    provider.disableImplicitSignUp = config.disableImplicitSignUp;
  return provider;
}

function lazy(id: string, value: SocialProviderValue): LazySocialProvider {
  let loaded: Promise<OAuthProvider | null> | undefined;
  return {
    id,
    load(ctx) {
      loaded ??= (async () => {
        const resolved = typeof value === "function" ? await value() : value;
        if (!resolved) return null;
        return isOAuthProvider(resolved) ? resolved : fromConfig(ctx, id, resolved);
      })().catch((error: unknown) => {
        loaded = undefined;
        throw error;
      });
      return loaded;
    },
  };
}

/**
 * The context fields of social sign-in, from `socialProviders` and `account`. A provider
 * object must be filed under its own id; the state strategy must be "database" (the cookie
 * strategy is not implemented): both are `TypeError`s at `createAuth`.
 */
export function socialProviderContext(options: LatchkeyOptions): {
  socialProviders: SocialProviderEntry[];
  socialProviderFactories: Record<string, SocialProviderFactory>;
} {
  const strategy = options.account?.storeStateStrategy;
  if (strategy !== undefined && strategy !== "database") {
    throw new TypeError(`account.storeStateStrategy "${String(strategy)}" is not supported; use "database".`);
  }
  const socialProviders: SocialProviderEntry[] = [];
  for (const [id, value] of Object.entries(options.socialProviders ?? {})) {
    if (!value) continue;
    if (isOAuthProvider(value)) {
      if (value.id !== id)
        throw new TypeError(`socialProviders.${id} holds provider "${value.id}"; file it under its own id.`);
      socialProviders.push(value);
    } else if (typeof value === "function" || typeof value === "object") {
      if (typeof value === "object" && value.enabled === false) continue;
      socialProviders.push(lazy(id, value));
    } else {
      throw new TypeError(`socialProviders.${id} must be a provider, a provider config or a function.`);
    }
  }
  return { socialProviders, socialProviderFactories: {} };
}

/** A provider the social routes can run: one carrying its {@link OAuthFlow}. */
export type RunnableOAuthProvider = OAuthProvider & { flow: OAuthFlow };

/** Whether the provider carries its flow; logs the operator's mistake when it does not. */
function runnable(ctx: AuthContext, provider: OAuthProvider): provider is RunnableOAuthProvider {
  if (provider.flow) return true;
  ctx.logger.error(
    `Social provider "${provider.id}" has no OAuth flow; build it with a provider builder or set \`flow: oauthFlow\`.`,
  );
  return false;
}

/**
 * The provider with this id, or null. Plugin-added providers are found too (they come
 * first). An entry that cannot be used (a lazy one resolving to nothing, a provider without
 * its flow) is passed over, as if not configured.
 */
export async function findSocialProvider(
  ctx: AuthContext,
  id: string,
): Promise<RunnableOAuthProvider | null> {
  for (const entry of ctx.socialProviders ?? []) {
    if (entry.id !== id) continue;
    const provider = isLazy(entry) ? await entry.load(ctx) : entry;
    if (provider && runnable(ctx, provider)) return provider;
  }
  return null;
}

/** The `/callback/<id>` path (or the provider's own) under the base URL. */
export function callbackPath(provider: OAuthProvider): string {
  if (!provider.callbackPath) return `/callback/${provider.id}`;
  return provider.callbackPath.startsWith("/") ? provider.callbackPath : `/${provider.callbackPath}`;
}

/** Providers whose email claims are trusted for linking (`accountLinking.trustedProviders`). */
export async function trustedProviders(ctx: AuthContext, request?: Request): Promise<string[]> {
  const option = ctx.options.account?.accountLinking?.trustedProviders;
  if (!option) return [];
  const list = Array.isArray(option) ? option : ((await option(request)) ?? []);
  return list.filter((p): p is string => typeof p === "string" && p !== "");
}
