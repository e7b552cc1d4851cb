import { generateRandomString, type EndpointContext, type Verification } from "@latchkey/core";
import type { ResolvedSSOOptions } from "../options.js";

/** The reference's default record prefix. */
const DEFAULT_TOKEN_PREFIX = "better-auth-token";
/** How long a verification token stays valid: seven days, as the reference. */
const TOKEN_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * `_<tokenPrefix>-<providerId>`: the `verification` row's identifier and the DNS label the TXT
 * record lives under (`<identifier>.<domain>`), as the reference names both.
 */
export const verificationIdentifier = (options: ResolvedSSOOptions, providerId: string): string =>
  `_${options.domainVerification?.tokenPrefix || DEFAULT_TOKEN_PREFIX}-${providerId}`;

/** The live token of a provider, or null. */
export async function activeToken(
  ctx: EndpointContext,
  options: ResolvedSSOOptions,
  providerId: string,
): Promise<Verification | null> {
  const row = await ctx.context.internalAdapter.findVerificationValue(
    verificationIdentifier(options, providerId),
  );
  return row && new Date(row.expiresAt).getTime() > Date.now() ? row : null;
}

/** Stores a new 24-character token for the provider (seven days) and answers it. */
export async function issueToken(
  ctx: EndpointContext,
  options: ResolvedSSOOptions,
  providerId: string,
): Promise<string> {
  const token = generateRandomString(24);
  await ctx.context.internalAdapter.createVerificationValue(
    {
      identifier: verificationIdentifier(options, providerId),
      value: token,
      expiresAt: new Date(Date.now() + TOKEN_LIFETIME_MS),
    },
    ctx,
  );
  return token;
}
