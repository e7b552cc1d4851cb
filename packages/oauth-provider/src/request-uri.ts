import type { EndpointContext } from "@latchkey/core";
import type { ResolvedOAuthOptions } from "./options.js";

/** What `requestUriResolver` gives back: the authorization parameters, or a refusal of the request. */
export type ResolvedRequestUri = { params: Record<string, unknown> } | { error: string; description: string };

/**
 * RFC 9126 §4 / RFC 9101 `request_uri` at the authorize endpoint, as the reference resolves it:
 * `client_id` is required, `requestUriResolver` turns the URI into the pushed parameters (null:
 * `invalid_request_uri`), and the query's own `client_id` is kept over the resolved one. A
 * resolver that throws counts as null (never a 500); `request` / `request_uri` members of
 * the resolved set are dropped so the signed request resumed later is not resolved again.
 */
export async function resolveRequestUri(ctx: EndpointContext, options: ResolvedOAuthOptions, raw: Record<string, unknown>): Promise<ResolvedRequestUri> {
  const clientId = raw.client_id;
  if (typeof clientId !== "string" || !clientId) return { error: "invalid_request", description: "client_id is required" };
  const resolver = options.requestUriResolver;
  if (!resolver) return { error: "request_uri_not_supported", description: "request_uri not supported" };
  if (typeof raw.request_uri !== "string") return { error: "invalid_request", description: "request_uri must not appear more than once" };
  let resolved: Record<string, string> | null;
  try {
    resolved = await resolver({ requestUri: raw.request_uri, clientId, ctx });
  } catch (error) {
    ctx.context.logger.error("requestUriResolver failed", error instanceof Error ? error.name : "unknown");
    resolved = null;
  }
  if (!resolved || typeof resolved !== "object") return { error: "invalid_request_uri", description: "request_uri is invalid or expired" };
  const { request: _request, request_uri: _uri, ...params } = resolved;
  return { params: { ...params, client_id: clientId } };
}
