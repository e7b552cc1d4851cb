import type { AuthContext } from "@latchkey/core";
import { compactVerify } from "jose";
import { providerOptions } from "./provider-options.js";
import type { OAuthClientRow } from "./schema.js";
import { decryptClientSecret } from "./token-hash.js";


/** Whether the provider runs without the jwt plugin (`disableJwtPlugin`): HS256 ID tokens, opaque access tokens. */
export const jwtDisabled = (ctx: AuthContext): boolean => providerOptions(ctx)?.disableJwtPlugin === true;

/**
 * The payload of an HS256 ID token the provider signed with `client`'s secret
 * (`disableJwtPlugin`), or null: no readable secret, another key, or no JWS at all.
 */
export async function verifyWithClientSecret(ctx: AuthContext, token: string, client: OAuthClientRow): Promise<Record<string, unknown> | null> {
  const options = providerOptions(ctx);
  if (!options || !client.clientSecret) return null;
  try {
    const secret = await decryptClientSecret(options, client.clientSecret, ctx);
    const { payload } = await compactVerify(token, new TextEncoder().encode(secret), { algorithms: ["HS256"] });
    return JSON.parse(new TextDecoder().decode(payload)) as Record<string, unknown>;
  } catch {
    return null;
  }
}
