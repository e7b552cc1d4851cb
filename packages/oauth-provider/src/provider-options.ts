import type { AuthContext } from "@latchkey/core";
import type { ResolvedOAuthOptions } from "./options.js";

/** The provider's resolved options, for code reached without them (hooks, helpers shared by routes). */
export function providerOptions(ctx: AuthContext): ResolvedOAuthOptions | undefined {
  return ctx.plugins.find((plugin) => plugin.id === "oauth-provider")?.options as ResolvedOAuthOptions | undefined;
}
