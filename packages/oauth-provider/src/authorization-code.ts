import { generateRandomString, type AuthContext, type Verification } from "@latchkey/core";
import type { ResolvedOAuthOptions } from "./options.js";
import { storedToken } from "./token-hash.js";

/** What the `verification` row of an authorization code holds (the reference's JSON). */
export interface AuthorizationCodeValue {
  type: "authorization_code";
  /** Every authorization parameter, as validated. */
  query: Record<string, unknown> & { client_id: string; redirect_uri?: string; scope?: string; code_challenge?: string; code_challenge_method?: string; nonce?: string; state?: string };
  userId: string;
  sessionId: string;
  referenceId?: string;
  /** Session sign-in time, milliseconds. */
  authTime?: number;
  resource?: string[];
}

/**
 * Stores a new code: 32 characters of `[a-zA-Z0-9]`, kept as its hash (the row's
 * identifier) with the request it answers, for `codeExpiresIn` seconds. Returns the plain code.
 */
export async function issueAuthorizationCode(
  ctx: AuthContext,
  options: ResolvedOAuthOptions,
  value: Omit<AuthorizationCodeValue, "type">,
): Promise<string> {
  const code = generateRandomString(32, "a-z", "A-Z", "0-9");
  await ctx.internalAdapter.createVerificationValue({
    identifier: await storedToken(options, code, "authorization_code"),
    value: JSON.stringify({ type: "authorization_code", ...value }),
    expiresAt: new Date(Date.now() + options.codeExpiresIn * 1000),
  });
  return code;
}

/** The code's request, parsed; null when the row is not an authorization code's. */
export function parseCodeValue(row: Verification): AuthorizationCodeValue | null {
  try {
    const value = JSON.parse(row.value) as Partial<AuthorizationCodeValue>;
    if (value?.type !== "authorization_code" || typeof value.query?.client_id !== "string") return null;
    if (typeof value.userId !== "string" || typeof value.sessionId !== "string") return null;
    return value as AuthorizationCodeValue;
  } catch {
    return null;
  }
}
