import * as v from "valibot";
import type { EndpointContext } from "../api/context.js";
import { endpoint } from "../api/endpoint.js";
import type { APIError } from "../errors/api-error.js";
import {
  callbackErrorRedirect,
  defaultErrorURL,
  OAUTH_CALLBACK_ERROR_CODES as E,
} from "../oauth2/callback-errors.js";
import { callbackPath, findSocialProvider } from "../oauth2/providers.js";
import { parseState } from "../oauth2/state.js";

// Every parameter is a single string; anything else (repeated keys, JSON values) is refused.
const params = v.object({
  code: v.optional(v.string()),
  error: v.optional(v.string()),
  device_id: v.optional(v.string()),
  error_description: v.optional(v.string()),
  state: v.optional(v.string()),
  user: v.optional(v.string()),
  iss: v.optional(v.string()),
});
type CallbackParams = v.InferOutput<typeof params>;

/**
 * `GET|POST /callback/:id`: the provider's redirect back. A POST (`response_mode=form_post`)
 * is turned into a GET of the same parameters, so the browser then carries its SameSite=Lax
 * state cookie (a cross-site POST does not). Every outcome is a 302: to the callback URL
 * with a session, or to an error URL with `?error=<code>`.
 */
export const oauthCallback = endpoint(
  "/callback/:id",
  { method: ["GET", "POST"], allowedMediaTypes: ["application/x-www-form-urlencoded", "application/json"] },
  (ctx) => runOAuthCallback(ctx),
);

/**
 * The callback flow of `/callback/:id`, also run by routes that serve it under another path
 * (Generic OAuth's legacy `/oauth2/callback/:id`). `redirectPath` is the path the provider
 * was told to return to: RFC 6749 §4.1.3 requires the code exchange to repeat that exact
 * `redirect_uri`. @default the provider's `/callback/<id>`
 */
export async function runOAuthCallback(ctx: EndpointContext, redirectPath?: string): Promise<never> {
  const fallback = defaultErrorURL(ctx);
  const object = (value: unknown) =>
    typeof value === "object" && value !== null && !Array.isArray(value) ? value : {};
  const merged = ctx.method === "POST" ? { ...object(ctx.body), ...object(ctx.query) } : object(ctx.query);
  const parsed = v.safeParse(params, merged);
  if (!parsed.success) throw callbackErrorRedirect(ctx, fallback, E.INVALID_CALLBACK_REQUEST);
  if (ctx.method === "POST") {
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(parsed.output)) if (value !== undefined) query.set(key, value);
    throw ctx.redirect(
      `${ctx.context.baseURL}${redirectPath ?? `/callback/${encodeURIComponent(ctx.params.id ?? "")}`}?${query}`,
    );
  }
  return handleCallback(ctx, parsed.output, redirectPath);
}

async function handleCallback(
  ctx: EndpointContext,
  query: CallbackParams,
  redirectPath: string | undefined,
): Promise<never> {
  const auth = ctx.context;
  const providerId = ctx.params.id ?? "";
  if (query.state === undefined && query.code) {
    const provider = await findSocialProvider(auth, providerId);
    if (provider?.allowIdpInitiated) {
      // An IdP-initiated login is restarted as a normal flow, so it gets a state and PKCE.
      const flowProvider = redirectPath ? { ...provider, callbackPath: redirectPath } : provider;
      const { url } = await provider.flow.startRedirect(ctx, flowProvider, { disableRedirect: true });
      throw ctx.redirect(url);
    }
  }
  if (!query.state) throw callbackErrorRedirect(ctx, defaultErrorURL(ctx), E.STATE_NOT_FOUND);
  const state = await parseState(ctx, query.state);
  const errorURL = state.errorURL ?? defaultErrorURL(ctx);
  const fail = (code: string, description?: string): APIError =>
    callbackErrorRedirect(ctx, errorURL, code, description);

  // RFC 6749 §4.1.2.1: the provider's own error is passed on to the application.
  if (query.error) throw fail(query.error, query.error_description);
  if (!query.code) throw fail(E.NO_CODE);
  const provider = await findSocialProvider(auth, providerId);
  if (!provider) throw fail(E.PROVIDER_NOT_FOUND);
  return provider.flow.completeCallback(ctx, provider, {
    state,
    code: query.code,
    iss: query.iss,
    deviceId: query.device_id,
    user: query.user,
    redirectURI: `${auth.baseURL}${redirectPath ?? callbackPath(provider)}`,
    fail,
  });
}
