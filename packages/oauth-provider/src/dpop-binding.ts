import { base64UrlEncode, type AuthContext } from "@latchkey/core";
import { clientMetadata } from "./clients.js";
import { verifyDpopProof, DpopProofError, type DpopReplayCheck } from "./dpop-proof.js";
import { oauthError } from "./oauth-error.js";
import type { ResolvedOAuthOptions } from "./options.js";
import type { OAuthClientRow } from "./schema.js";

/** The DPoP parts of a token request: its `DPoP` header and the URLs it may have been sent to. */
export interface DpopRequest {
  proof?: string | undefined;
  urls: string[];
}

/** RFC 7800 `cnf` of a DPoP-bound token. */
export interface Confirmation {
  jkt: string;
}

/** The bound thumbprint of a stored `confirmation` (JSON column, text or object), if any. */
export function confirmationJkt(value: unknown): string | undefined {
  let parsed = value;
  if (typeof value === "string") {
    try {
      parsed = JSON.parse(value);
    } catch {
      return undefined;
    }
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) return undefined;
  const jkt = (parsed as { jkt?: unknown }).jkt;
  return typeof jkt === "string" && jkt ? jkt : undefined;
}

/** 32 characters (192 bits of SHA-256): the id columns hold 36 on MySQL. */
const digest = async (text: string) =>
  base64UrlEncode(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text))).slice(0, 24));

/**
 * Single use of proofs across nodes (RFC 9449 §11.1). With a secondary storage that counts
 * atomically (`increment`, Redis INCR) the first use is the one that reads 1. Otherwise a
 * `verification` row `dpop-proof:<key>` (the reference's identifier) whose id is derived from
 * the key, so concurrent inserts collide on the primary key and one wins. The id is 32
 * characters where the reference writes 43, which MySQL's `varchar(36)` ids cannot hold.
 */
export function dpopReplayStore(ctx: AuthContext): DpopReplayCheck {
  return async (key, expiresAt) => {
    const identifier = `dpop-proof:${key}`;
    const ttl = Math.max(1, Math.ceil((expiresAt.getTime() - Date.now()) / 1000));
    const storage = ctx.secondaryStorage;
    if (storage?.increment) return (await storage.increment(identifier, ttl)) === 1;
    const id = await digest(`reserve:${identifier}`);
    const now = new Date();
    try {
      await ctx.adapter.create({ model: "verification", data: { id, identifier, value: key, expiresAt, createdAt: now, updatedAt: now } });
      return true;
    } catch (error) {
      const found = await ctx.adapter.findOne({ model: "verification", where: [{ field: "id", value: id }] }).catch(() => null);
      if (found) return false;
      throw error;
    }
  };
}

const invalidProof = (description: string) => oauthError("BAD_REQUEST", "invalid_dpop_proof", description);

/** Whether the client registered `dpop_bound_access_tokens` (column or metadata). */
const clientRequiresDpop = (client: OAuthClientRow): boolean =>
  client.dpopBoundAccessTokens === true || clientMetadata(client)?.dpop_bound_access_tokens === true;

/**
 * The key the issued tokens are bound to (RFC 9449 §5), or undefined for Bearer tokens. A proof
 * is required when the client registered for bound tokens, the code was authorized with
 * `dpop_jkt`, or the refresh token is bound; its key must then be that thumbprint.
 */
export async function tokenBinding(
  ctx: AuthContext,
  options: ResolvedOAuthOptions,
  request: DpopRequest,
  bound: { client: OAuthClientRow; codeJkt?: string | undefined; refreshConfirmation?: unknown; resourceRequires?: boolean | undefined },
): Promise<Confirmation | undefined> {
  const refreshJkt = confirmationJkt(bound.refreshConfirmation);
  const expectedJkt = refreshJkt ?? bound.codeJkt;
  if (!request.proof) {
    if (expectedJkt || clientRequiresDpop(bound.client) || bound.resourceRequires) throw invalidProof("DPoP proof header is required");
    return undefined;
  }
  try {
    const proof = await verifyDpopProof({
      proof: request.proof,
      method: "POST",
      urls: request.urls,
      expectedJkt,
      maxAge: options.dpop?.proofMaxAgeSeconds,
      algorithms: options.dpop?.signingAlgorithms,
      replay: dpopReplayStore(ctx),
    });
    return { jkt: proof.jkt };
  } catch (error) {
    if (error instanceof DpopProofError) throw invalidProof(error.message);
    throw error;
  }
}
