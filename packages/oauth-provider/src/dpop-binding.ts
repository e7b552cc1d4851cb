import type { AuthContext } from "@latchkey/core";
import { clientMetadata } from "./clients.js";
import { verifyDpopProof, DpopProofError } from "./dpop-proof.js";
import { dpopReplayStore } from "./dpop-replay.js";
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
