/**
 * `WWW-Authenticate` challenges of a protected resource: RFC 6750 §3 (Bearer), RFC 9449 §7.1
 * (DPoP) and RFC 9728 §5.1 (`resource_metadata`). No dependencies: usable by any API.
 */

/** What a challenge says. */
export interface ChallengeInput {
  /** RFC 6750 §3.1 / RFC 9449 §7.1 error code; absent when the request had no credentials. */
  error?: "invalid_request" | "invalid_token" | "insufficient_scope" | "invalid_dpop_proof" | undefined;
  description?: string | undefined;
  /** Scopes needed (`insufficient_scope`), space separated. */
  scope?: string | undefined;
  /** The RFC 9728 protected-resource metadata URL. */
  resourceMetadata?: string | undefined;
  /** `realm`. */
  realm?: string | undefined;
}

// RFC 6750 §3: quoted values are limited to %x20-21 / %x23-5B / %x5D-7E (no quote, no backslash).
const quotable = (value: string): string => value.replace(/[^\x20\x21\x23-\x5b\x5d-\x7e]/g, "");

function params(entries: Array<[string, string | undefined]>): string {
  return entries
    .filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== "")
    .map(([name, value]) => `${name}="${quotable(value)}"`)
    .join(", ");
}

/** `Bearer realm=…, error=…, error_description=…, scope=…, resource_metadata=…` (RFC 6750 §3, RFC 9728 §5.1). */
export function bearerChallenge(input: ChallengeInput = {}): string {
  const list = params([
    ["realm", input.realm],
    ["error", input.error],
    ["error_description", input.description],
    ["scope", input.scope],
    ["resource_metadata", input.resourceMetadata],
  ]);
  return list ? `Bearer ${list}` : "Bearer";
}

/** `DPoP error=…, error_description=…, algs="…"` (RFC 9449 §7.1). */
export function dpopChallenge(input: ChallengeInput & { algorithms: string[] }): string {
  return `DPoP ${params([
    ["realm", input.realm],
    ["error", input.error],
    ["error_description", input.description],
    ["scope", input.scope],
    ["resource_metadata", input.resourceMetadata],
    ["algs", input.algorithms.join(" ")],
  ])}`;
}

/**
 * RFC 9728 §3.1: the metadata URL of a resource identifier, the well-known suffix inserted
 * between host and path (`https://api.example/v1` → `https://api.example/.well-known/oauth-protected-resource/v1`).
 */
export function protectedResourceMetadataUrl(resource: string): string {
  const url = new URL(resource);
  const path = url.pathname === "/" ? "" : url.pathname.replace(/\/$/, "");
  return `${url.origin}/.well-known/oauth-protected-resource${path}${url.search}`;
}
