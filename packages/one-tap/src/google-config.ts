import type { LatchkeyOptions, OAuthProvider, SocialProviderConfig } from "@latchkey/core";

/** The parts of the `socialProviders.google` entry One Tap reads. */
export interface GoogleSettings {
  clientId?: string | string[] | undefined;
  /** Hosted domain the token's `hd` claim must match (`"*"`: any Workspace domain). */
  hd?: string | undefined;
  disableSignUp?: boolean | undefined;
  requireEmailVerification?: boolean | undefined;
}

const isProviderObject = (value: OAuthProvider | SocialProviderConfig): value is OAuthProvider =>
  typeof (value as { createAuthorizationURL?: unknown }).createAuthorizationURL === "function";

/**
 * Reads `socialProviders.google` as the reference does: a config object, a function
 * returning one, or (Latchkey) a provider object whose `options` hold the config. Nothing
 * configured yields an empty object: One Tap then needs its own `clientId`.
 */
export async function googleSettings(options: LatchkeyOptions): Promise<GoogleSettings> {
  const entry = options.socialProviders?.google;
  const value = typeof entry === "function" ? await entry() : entry;
  if (!value || typeof value !== "object") return {};
  const config: Record<string, unknown> = isProviderObject(value) ? { ...value.options } : value;
  return {
    clientId:
      typeof config.clientId === "string" || Array.isArray(config.clientId) ? config.clientId : undefined,
    hd: typeof config.hd === "string" ? config.hd : undefined,
    disableSignUp: config.disableSignUp === true,
    requireEmailVerification: config.requireEmailVerification === true,
  };
}
