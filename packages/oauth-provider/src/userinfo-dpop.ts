import type { EndpointContext } from "@latchkey/core";
import { confirmationJkt } from "./dpop-binding.js";
import { dpopReplayStore } from "./dpop-replay.js";
import { DPOP_ALGORITHMS, DpopProofError, verifyDpopProof } from "./dpop-proof.js";
import { oauthError } from "./oauth-error.js";
import type { ResolvedOAuthOptions } from "./options.js";

/**
 * RFC 9449 §7.1 at userinfo: a DPoP-bound token (`cnf.jkt`) is accepted only under the `DPoP`
 * scheme with a proof of its key for this request (`ath` included); the `DPoP` scheme with an
 * unbound token is refused. Failures are 401 with a `DPoP` challenge (§7.1).
 */
export async function enforceUserInfoBinding(
  ctx: EndpointContext,
  options: ResolvedOAuthOptions,
  token: string,
  payload: Record<string, unknown>,
): Promise<void> {
  const scheme = /^(\S+)\s/.exec(ctx.headers.get("authorization") ?? "")?.[1]?.toLowerCase();
  const jkt = confirmationJkt(payload.cnf);
  const algorithms = options.dpop?.signingAlgorithms ?? DPOP_ALGORITHMS;
  const refuse = (error: string, description: string) =>
    oauthError("UNAUTHORIZED", error, description, {
      "WWW-Authenticate": `DPoP error="${error}", error_description="${description}", algs="${algorithms.join(" ")}"`,
    });
  if (!jkt) {
    if (scheme === "dpop") throw refuse("invalid_token", "DPoP authorization requires a DPoP-bound access token");
    return;
  }
  if (scheme !== "dpop") throw refuse("invalid_token", "DPoP-bound access token requires the DPoP authorization scheme");
  const proof = ctx.headers.get("dpop");
  if (!proof) throw refuse("invalid_dpop_proof", "DPoP proof header is required");
  const endpointUrl = `${ctx.context.baseURL}/oauth2/userinfo`;
  try {
    await verifyDpopProof({
      proof,
      method: ctx.request?.method ?? ctx.method,
      urls: ctx.request ? [endpointUrl, ctx.request.url] : [endpointUrl],
      accessToken: token,
      expectedJkt: jkt,
      maxAge: options.dpop?.proofMaxAgeSeconds,
      algorithms,
      replay: dpopReplayStore(ctx.context),
    });
  } catch (error) {
    if (error instanceof DpopProofError) throw refuse("invalid_dpop_proof", error.message);
    throw error;
  }
}
