import { deleteSessionCookie, getService, type EndpointContext, type Session } from "@latchkey/core";
import { JWT_SIGNER } from "@latchkey/jwt";
import { compactVerify, createLocalJWKSet, decodeJwt, type JWTPayload } from "jose";
import { findClient } from "./clients.js";
import { singleMember } from "./form-member.js";
import { redirectTo } from "./interaction.js";
import { tokenIssuer } from "./issuer.js";
import { jwtDisabled, verifyWithClientSecret } from "./jwt-disabled.js";
import { clearConfirmation, readConfirmation, setConfirmation, type LogoutConfirmation } from "./logout-confirmation.js";
import { confirmationPage, isBrowserNavigation, loggedOutPage, logoutErrorPage } from "./logout-pages.js";
import { NO_STORE, noStoreError } from "./oauth-error.js";
import type { OAuthClientRow } from "./schema.js";

/** The parameters of OIDC RP-Initiated Logout 1.0 §2 the route reads. */
export interface EndSessionRequest {
  id_token_hint?: string;
  client_id?: string;
  post_logout_redirect_uri?: string;
  state?: string;
}

type Answer = Response | { redirect: true; url: string } | null;
type Status = "BAD_REQUEST" | "UNAUTHORIZED";

const FORBIDDEN_SCHEMES = new Set(["javascript:", "data:", "vbscript:", "file:"]);

/** The query and body merged (body wins), each member a single string; a URL for the redirect. */
export function readEndSessionRequest(query: unknown, body: unknown): EndSessionRequest {
  const source = { ...(query && typeof query === "object" ? query : {}), ...(body && typeof body === "object" && !Array.isArray(body) ? body : {}) } as Record<string, unknown>;
  const out: EndSessionRequest = {};
  for (const name of ["id_token_hint", "client_id", "post_logout_redirect_uri", "state"] as const) {
    const read = singleMember(name, source[name]);
    if ("description" in read) throw noStoreError("BAD_REQUEST", "invalid_request", read.description);
    if (read.value !== undefined) out[name] = read.value;
  }
  const uri = out.post_logout_redirect_uri;
  if (uri !== undefined && (!URL.canParse(uri) || FORBIDDEN_SCHEMES.has(new URL(uri).protocol))) {
    throw noStoreError("BAD_REQUEST", "invalid_request", "post_logout_redirect_uri must be a valid URL");
  }
  return out;
}

/** A protocol error: an HTML page for a browser, else the OAuth JSON error (no-store). */
function protocolError(ctx: EndpointContext, status: Status, error: string, description: string): Response {
  if (isBrowserNavigation(ctx)) return logoutErrorPage(description, status === "BAD_REQUEST" ? 400 : 401);
  throw noStoreError(status, error, description);
}

/** The session of the browser's session cookie, or null. */
async function browserSession(ctx: EndpointContext): Promise<Session | null> {
  const token = await ctx.getSignedCookie(ctx.context.authCookies.sessionToken.name);
  if (!token) return null;
  return (await ctx.context.internalAdapter.findSession(token))?.session ?? null;
}

/** The registered URI with `state` added; `invalid` when it is not registered exactly (RP-Initiated Logout §3). */
function registeredRedirect(client: OAuthClientRow, requested: string | undefined, state: string | undefined): { uri?: string; invalid: boolean } {
  if (!requested) return { invalid: false };
  if (!client.postLogoutRedirectUris?.includes(requested)) return { invalid: true };
  if (!state) return { uri: requested, invalid: false };
  const url = new URL(requested);
  url.searchParams.set("state", state);
  return { uri: url.toString(), invalid: false };
}

function confirmationContext(client: OAuthClientRow, request: EndSessionRequest): Omit<LogoutConfirmation, "expiresAt" | "sessionId"> {
  if (!request.post_logout_redirect_uri) return {};
  if (registeredRedirect(client, request.post_logout_redirect_uri, request.state).invalid) return { redirectInvalid: true };
  return { clientId: client.clientId, postLogoutRedirectUri: request.post_logout_redirect_uri, ...(request.state !== undefined ? { state: request.state } : {}) };
}

/** The client a hint names: `client_id` when given, else the hint's single audience or `azp`. */
async function hintClient(ctx: EndpointContext, hint: string, clientId: string | undefined): Promise<OAuthClientRow | null> {
  if (clientId) return findClient(ctx.context, clientId);
  let payload: JWTPayload;
  try {
    payload = decodeJwt(hint);
  } catch {
    return null;
  }
  const audiences = [payload.aud].flat().filter((aud): aud is string => typeof aud === "string" && aud.length > 0);
  const candidate = audiences.length === 1 ? audiences[0] : typeof payload.azp === "string" && payload.azp ? payload.azp : undefined;
  return candidate ? findClient(ctx.context, candidate) : null;
}

/**
 * The hint's claims when it is an ID token this provider signed for `client` with `sub` and
 * `sid`. Its `exp` is not checked: RP-Initiated Logout §2 lets an expired ID token serve as hint.
 */
async function verifyHint(ctx: EndpointContext, hint: string, client: OAuthClientRow): Promise<{ sid: string; sub: string } | null> {
  try {
    let claims: JWTPayload;
    if (jwtDisabled(ctx.context)) {
      // `disableJwtPlugin`: the hint is HS256 under the client's secret, as its ID tokens are.
      const verified = await verifyWithClientSecret(ctx.context, hint, client);
      if (!verified) return null;
      claims = verified as JWTPayload;
    } else {
      const keys = createLocalJWKSet({ keys: (await getService(ctx.context, JWT_SIGNER).jwks()) as never });
      const { payload } = await compactVerify(hint, keys);
      claims = JSON.parse(new TextDecoder().decode(payload)) as JWTPayload;
    }
    if (claims.iss !== tokenIssuer(ctx.context)) return null;
    if (![claims.aud].flat().includes(client.clientId)) return null;
    if (typeof claims.sid !== "string" || !claims.sid || typeof claims.sub !== "string" || !claims.sub) return null;
    return { sid: claims.sid, sub: claims.sub };
  } catch {
    return null;
  }
}

/** Asks the browser to confirm (a page and a signed cookie); a script without a session is refused. */
async function confirmationRequired(
  ctx: EndpointContext,
  current: Session | null,
  context: Omit<LogoutConfirmation, "expiresAt" | "sessionId"> = {},
): Promise<Answer> {
  if (!isBrowserNavigation(ctx)) {
    return protocolError(ctx, "BAD_REQUEST", "invalid_request", current ? "User confirmation is required to complete logout" : "No active session is available for logout");
  }
  await setConfirmation(ctx, { ...(current ? { sessionId: current.id } : {}), ...context });
  return confirmationPage(ctx);
}

/** Ends the session (its delete hooks run: token revocation, back-channel logout). */
async function endSession(ctx: EndpointContext, session: Session): Promise<void> {
  await ctx.context.internalAdapter.deleteSession(session.token, ctx);
}

function finish(ctx: EndpointContext, redirect: { uri?: string; invalid: boolean }): Answer {
  for (const [name, value] of Object.entries(NO_STORE)) ctx.setHeader(name, value);
  if (redirect.uri) return redirectTo(ctx, redirect.uri);
  return isBrowserNavigation(ctx) ? loggedOutPage(redirect.invalid) : null;
}

function clientRefusal(ctx: EndpointContext, client: OAuthClientRow): Response | undefined {
  if (client.disabled) return protocolError(ctx, "BAD_REQUEST", "invalid_client", "The logout client is disabled");
  if (!client.enableEndSession) return protocolError(ctx, "UNAUTHORIZED", "invalid_client", "The client is not allowed to initiate logout");
  return undefined;
}

/**
 * OIDC RP-Initiated Logout 1.0, as the reference serves it: a valid `id_token_hint` for the
 * current browser session (or for no browser session) ends the hinted session at once; any
 * other request ends the browser's session only after the user confirms on the provider's
 * page. A redirect goes only to a `post_logout_redirect_uri` the client registered exactly.
 */
export async function rpInitiatedLogout(ctx: EndpointContext, request: EndSessionRequest): Promise<Answer> {
  const current = await browserSession(ctx);
  if (request.id_token_hint === undefined) {
    let context = {};
    if (request.client_id) {
      const client = await findClient(ctx.context, request.client_id);
      if (!client) return protocolError(ctx, "BAD_REQUEST", "invalid_client", "The logout client does not exist");
      const refused = clientRefusal(ctx, client);
      if (refused) return refused;
      context = confirmationContext(client, request);
    }
    return confirmationRequired(ctx, current, context);
  }
  const client = await hintClient(ctx, request.id_token_hint, request.client_id);
  if (!client) {
    if (current && isBrowserNavigation(ctx)) return confirmationRequired(ctx, current);
    return protocolError(ctx, "BAD_REQUEST", "invalid_client", "The logout client does not exist");
  }
  const refused = clientRefusal(ctx, client);
  if (refused) return refused;
  const hint = await verifyHint(ctx, request.id_token_hint, client);
  if (!hint) {
    if (current && isBrowserNavigation(ctx)) return confirmationRequired(ctx, current, request.client_id ? confirmationContext(client, request) : {});
    return protocolError(ctx, "UNAUTHORIZED", "invalid_token", "The id_token_hint is invalid");
  }
  const matchesCurrent = current?.id === hint.sid;
  if (current && !matchesCurrent) return confirmationRequired(ctx, current, confirmationContext(client, request));
  const hinted = await ctx.context.adapter.findOne<Session>({ model: "session", where: [{ field: "id", value: hint.sid }] });
  const redirect = registeredRedirect(client, request.post_logout_redirect_uri, request.state);
  const target = hinted ?? (matchesCurrent ? current : null);
  if (target) await endSession(ctx, target);
  if (matchesCurrent) deleteSessionCookie(ctx);
  clearConfirmation(ctx);
  return finish(ctx, redirect);
}

/** The confirm step: ends the browser session the confirmation was made for, then redirects or shows the result. */
export async function confirmLogout(ctx: EndpointContext): Promise<Answer> {
  const confirmation = await readConfirmation(ctx);
  const current = await browserSession(ctx);
  if (!confirmation || confirmation.expiresAt <= Date.now()) {
    return protocolError(ctx, "BAD_REQUEST", "invalid_request", "The logout confirmation is invalid or expired");
  }
  let redirect: { uri?: string; invalid: boolean } = { invalid: Boolean(confirmation.redirectInvalid) };
  if (!confirmation.redirectInvalid && confirmation.clientId && confirmation.postLogoutRedirectUri) {
    const client = await findClient(ctx.context, confirmation.clientId);
    redirect =
      !client || client.disabled || !client.enableEndSession
        ? { invalid: true }
        : registeredRedirect(client, confirmation.postLogoutRedirectUri, confirmation.state);
  }
  if (!current) {
    clearConfirmation(ctx);
    if (!redirect.uri && !isBrowserNavigation(ctx)) return protocolError(ctx, "BAD_REQUEST", "invalid_request", "No active session is available for logout");
    return finish(ctx, redirect);
  }
  if (confirmation.sessionId && confirmation.sessionId !== current.id) {
    return protocolError(ctx, "BAD_REQUEST", "invalid_request", "The logout confirmation is invalid or expired");
  }
  await endSession(ctx, current);
  deleteSessionCookie(ctx);
  clearConfirmation(ctx);
  return finish(ctx, redirect);
}
