import * as v from "valibot";
import type { EndpointContext, RequestContext } from "../api/context.js";
import { constantTimeEqual } from "../crypto/constant-time.js";
import { generateRandomString } from "../crypto/random.js";
import { APIError } from "../errors/api-error.js";
import { fail } from "../errors/index.js";
import { originOf } from "../security/trusted-origins.js";
import { callbackErrorRedirect, defaultErrorURL, OAUTH_CALLBACK_ERROR_CODES } from "./callback-errors.js";
import { generateCodeVerifier } from "./pkce.js";

/** Seconds an OAuth flow may take from sign-in to callback (reference: 10 minutes). */
const STATE_TTL_SECONDS = 600;
/** Lifetime of the signed `state` cookie (reference: 5 minutes). */
const STATE_COOKIE_SECONDS = 300;

// The stored value, as the reference writes it (so a flow begun on either implementation
// finishes on the other): additional data spread first, the protocol fields over it.
const stateSchema = v.looseObject({
  callbackURL: v.string(),
  codeVerifier: v.string(),
  errorURL: v.optional(v.string()),
  newUserURL: v.optional(v.string()),
  expiresAt: v.number(),
  oauthState: v.optional(v.string()),
  link: v.optional(
    v.object({ email: v.string(), userId: v.pipe(v.union([v.string(), v.number()]), v.transform(String)) }),
  ),
  requestSignUp: v.optional(v.boolean()),
  idTokenNonce: v.optional(v.string()),
  // Server-set values riding the flow (the reference's `addOAuthServerContext`), never the body's.
  serverContext: v.optional(v.record(v.string(), v.unknown())),
});

/** The data an OAuth flow carries from sign-in to callback. */
export type OAuthStateData = v.InferOutput<typeof stateSchema>;

const current = new WeakMap<RequestContext, OAuthStateData>();

/**
 * The OAuth state of the flow the request belongs to (in hooks and callbacks), with the
 * `additionalData` passed to `/sign-in/social` at the top level: `state.myKey` (spec, Social
 * sign-in 10). Null outside an OAuth flow.
 */
export function getOAuthState(ctx: EndpointContext): Record<string, unknown> | null {
  return current.get(ctx.context) ?? null;
}

interface StateBody {
  callbackURL?: string;
  errorCallbackURL?: string;
  newUserCallbackURL?: string;
  requestSignUp?: boolean;
}

/**
 * Starts an OAuth flow: a 32-character `state` (RFC 6749 §10.12) and a PKCE verifier, stored
 * through the verification storage under the state for 10 minutes (so `verification.storeIdentifier`
 * and secondary storage apply, spec Social sign-in 12), plus the state in a signed cookie
 * that binds the flow to this browser.
 */
export async function generateState(
  ctx: EndpointContext,
  extra: {
    link?: { email: string; userId: string };
    additionalData?: Record<string, unknown>;
    idTokenNonce?: string;
    /** Server-trusted values for the callback (`state.serverContext`); a client's `additionalData` cannot set them. */
    serverContext?: Record<string, unknown>;
  } = {},
): Promise<{ state: string; codeVerifier: string }> {
  const body = (ctx.body ?? {}) as StateBody;
  // Reference: the base URL's origin when the body names no callback URL.
  const callbackURL = body.callbackURL || originOf(ctx.context.baseURL);
  if (!callbackURL) throw fail("BAD_REQUEST", "CALLBACK_URL_REQUIRED");
  const state = generateRandomString(32);
  const codeVerifier = generateCodeVerifier();
  const data: OAuthStateData = {
    ...extra.additionalData,
    callbackURL,
    codeVerifier,
    errorURL: body.errorCallbackURL,
    newUserURL: body.newUserCallbackURL,
    link: extra.link,
    // After the spread: a `serverContext` key in client-supplied additional data is dropped.
    serverContext:
      extra.serverContext && Object.keys(extra.serverContext).length ? extra.serverContext : undefined,
    expiresAt: Date.now() + STATE_TTL_SECONDS * 1000,
    requestSignUp: body.requestSignUp,
    idTokenNonce: extra.idTokenNonce,
    oauthState: state,
  };
  const cookie = ctx.context.authCookies.create("state", { maxAge: STATE_COOKIE_SECONDS });
  await ctx.setSignedCookie(cookie.name, state, cookie.attributes);
  const stored = await ctx.context.internalAdapter.createVerificationValue(
    { identifier: state, value: JSON.stringify(data), expiresAt: new Date(data.expiresAt) },
    ctx,
  );
  if (!stored) throw new APIError("INTERNAL_SERVER_ERROR", { message: "Unable to create verification" });
  current.set(ctx.context, data);
  return { state, codeVerifier };
}

function parseStored(value: string): OAuthStateData | null {
  try {
    const parsed = v.safeParse(stateSchema, JSON.parse(value));
    return parsed.success ? parsed.output : null;
  } catch {
    return null;
  }
}

/**
 * Ends an OAuth flow: takes the stored state (single use, atomically, so a replayed or raced
 * callback finds nothing), checks it names this state, that this browser holds the signed
 * state cookie (login CSRF, RFC 6749 §10.12) and that it has not expired. Every failure
 * throws the `state_mismatch` redirect (spec: "every other state failure"), to the flow's
 * error URL once the state is known.
 */
export async function parseState(ctx: EndpointContext, state: string): Promise<OAuthStateData> {
  const fallback = defaultErrorURL(ctx);
  const cookie = ctx.context.authCookies.create("state");
  const mismatch = (errorURL: string | undefined): APIError => {
    ctx.context.logger.warn("OAuth state check failed");
    return callbackErrorRedirect(ctx, errorURL || fallback, OAUTH_CALLBACK_ERROR_CODES.STATE_MISMATCH);
  };
  let row;
  try {
    // Expired rows too: an expired flow still goes to its own error URL and loses its cookie.
    row = await ctx.context.internalAdapter.consumeVerificationValue(state, { includeExpired: true });
  } catch (error) {
    ctx.context.logger.error("Failed to read OAuth state", error);
    throw callbackErrorRedirect(ctx, fallback, OAUTH_CALLBACK_ERROR_CODES.INTERNAL_SERVER_ERROR);
  }
  if (!row) throw mismatch(undefined);
  const data = parseStored(row.value);
  if (!data) throw mismatch(undefined);
  if (data.oauthState !== undefined && !constantTimeEqual(data.oauthState, state))
    throw mismatch(data.errorURL);
  if (!ctx.context.options.account?.skipStateCookieCheck) {
    const held = await ctx.getSignedCookie(cookie.name);
    if (!held || !constantTimeEqual(held, state)) throw mismatch(data.errorURL);
  }
  ctx.expireCookie(cookie);
  // Either clock: the flow's own `expiresAt` or the stored row's (the consume returned it anyway).
  if (data.expiresAt < Date.now() || row.expiresAt.getTime() < Date.now()) throw mismatch(data.errorURL);
  data.errorURL ||= fallback;
  current.set(ctx.context, data);
  return data;
}
