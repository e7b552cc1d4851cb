import { serviceKey } from "../plugin-services.js";

/** How `Authorization: Bearer` values are read; published by the `bearer()` plugin. */
export interface BearerTokenPolicy {
  /**
   * Accept a bare session token (no signature), as the reference's `bearer()` does unless
   * `requireSignature`. Without the plugin core accepts only the signed `token.sig` form.
   */
  acceptUnsigned: boolean;
}

/** The service key of the Bearer token policy. */
export const BEARER_TOKEN_POLICY = serviceKey<BearerTokenPolicy>("bearer.token-policy");
