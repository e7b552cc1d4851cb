import type { LatchkeyPlugin } from "@latchkey/core";
import { resolveMagicLinkOptions, type MagicLinkOptions, type ResolvedMagicLinkOptions } from "./options.js";
import { signInMagicLink } from "./routes/sign-in.js";
import { magicLinkVerify } from "./routes/verify.js";

export type { MagicLinkData, MagicLinkOptions, MagicLinkTokenStorage } from "./options.js";
export { hashToken as defaultKeyHasher } from "./token.js";

const makeEndpoints = (options: ResolvedMagicLinkOptions) => ({
  signInMagicLink: signInMagicLink(options),
  magicLinkVerify: magicLinkVerify(options),
});

/** The plugin object `magicLink()` returns. */
export interface MagicLinkPlugin extends LatchkeyPlugin<"magic-link", ReturnType<typeof makeEndpoints>> {
  id: "magic-link";
  options: ResolvedMagicLinkOptions;
}

/**
 * Passwordless sign-in by email: `POST /sign-in/magic-link` mails a single-use link, and
 * `GET /magic-link/verify` redeems it, signing the user in (and creating them, email
 * verified, unless `disableSignUp`).
 *
 * @example
 * const auth = createAuth({ ...options, plugins: [magicLink({ sendMagicLink: ({ email, url }) => mail(email, url) })] });
 */
export function magicLink(options: MagicLinkOptions): MagicLinkPlugin {
  const resolved = resolveMagicLinkOptions(options);
  return {
    id: "magic-link",
    endpoints: makeEndpoints(resolved),
    rateLimit: [
      {
        pathMatcher: (path) => path.startsWith("/sign-in/magic-link") || path.startsWith("/magic-link/verify"),
        window: resolved.rateLimit.window,
        max: resolved.rateLimit.max,
      },
    ],
    options: resolved,
  };
}
