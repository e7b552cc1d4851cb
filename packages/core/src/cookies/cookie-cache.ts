import type { EndpointContext } from "../api/context.js";
import type { SessionWithUser } from "../db/internal-adapter.js";
import type { ResolvedSchema } from "../db/field.js";
import type { Session, User } from "../db/models.js";
import type { CookieCacheConfig } from "./cookie-cache-options.js";
import { constantTimeEqual } from "../crypto/constant-time.js";
import { toOutput } from "../db/output.js";
import { findService } from "../plugin-services.js";
import { COOKIE_CACHE_SIGNER } from "./cookie-cache-signer.js";
import { clearChunkedCookie, readChunkedCookie, requestChunkNames, writeChunkedCookie } from "./chunks.js";
import { decodeCookieCache, encodeCookieCache, type CacheDateFields, type DecodedCookieCache } from "./cookie-cache-codec.js";

// The session cache cookie (`session_data`, reference core.md §7; spec, Authentication 4):
// a signed or encrypted copy of the session and user, bound to the session cookie it was
// issued with, that lets session reads skip storage until it expires.

const CORE_DATES = { session: new Set(["expiresAt", "createdAt", "updatedAt"]), user: new Set(["createdAt", "updatedAt"]) };
const dateFieldsBySchema = new WeakMap<ResolvedSchema, CacheDateFields>();

/** Additional and plugin fields of type `date` on session and user (computed once per schema). */
function dateFields(schema: ResolvedSchema): CacheDateFields {
  let fields = dateFieldsBySchema.get(schema);
  if (!fields) {
    const extra = (model: "session" | "user"): string[] =>
      Object.entries(schema[model]?.fields ?? {})
        .filter(([key, field]) => field.type === "date" && !CORE_DATES[model].has(key))
        .map(([key]) => key);
    fields = { session: extra("session"), user: extra("user") };
    dateFieldsBySchema.set(schema, fields);
  }
  return fields;
}

/** The configured version for this session and user ("1" unless `version` says otherwise). */
async function expectedVersion(config: CookieCacheConfig, session: Session, user: User): Promise<string> {
  return typeof config.version === "string" ? config.version : await config.version(session, user);
}

/**
 * Writes the cache cookie for `data` when `session.cookieCache` is enabled. Fields marked
 * `returned: false` never enter it. With `dontRememberMe` the cookie has no Max-Age (it
 * ends with the browser session) and its content expires sooner (compact 60 s, jwt and
 * jwe 300 s), as in the reference.
 */
export async function setCookieCache(ctx: EndpointContext, data: SessionWithUser, dontRememberMe: boolean): Promise<void> {
  const config = ctx.context.sessionConfig.cookieCache;
  if (!config.enabled) return;
  const { schema, authCookies, secret } = ctx.context;
  const sessionData = {
    session: toOutput(schema, "session", data.session),
    user: toOutput(schema, "user", data.user),
    updatedAt: Date.now(),
    version: await expectedVersion(config, data.session, data.user),
  };
  const spec = authCookies.sessionData;
  // `advanced.cookies.session_data.attributes.maxAge` wins over cookieCache.maxAge, and the
  // content's lifetime follows the cookie's, as in the reference.
  const attributes = { ...spec.attributes, maxAge: dontRememberMe ? undefined : spec.attributes.maxAge };
  const signer = findService(ctx.context, COOKIE_CACHE_SIGNER);
  const value = await encodeCookieCache(config.strategy, sessionData, attributes.maxAge, secret, signer);
  writeChunkedCookie(ctx, spec.name, value, attributes);
}

/** Whether a decoded cache may answer for the session cookie's `token` right now. */
async function isUsable(config: CookieCacheConfig, cache: DecodedCookieCache, token: string): Promise<boolean> {
  const { session, user } = cache.payload;
  // Binding (spec, Authentication 4): a cache issued with another session cookie is foreign,
  // whoever signed it. Constant time, though both sides are authenticated already.
  if (!constantTimeEqual(session.token, token)) return false;
  // Reference: a cache without a version is version "1".
  if ((cache.payload.version || "1") !== (await expectedVersion(config, session, user))) return false;
  const now = Date.now();
  // Both the cache's own expiry and the session's: a session that ended while its cache was
  // still fresh must not be served from it.
  return cache.expiresAt >= now && session.expiresAt.getTime() >= now;
}

/**
 * The session the request's cache cookie vouches for, bound to `token` (the verified
 * session cookie's value). A cache that is present but unusable (tampered, foreign,
 * expired, another version or secret) is expired, chunks included, and null returned: the
 * caller then reads storage. Null without side effects when there is no cache cookie.
 */
export async function readCookieCache(ctx: EndpointContext, token: string): Promise<SessionWithUser | null> {
  const { sessionConfig, authCookies, secret, schema } = ctx.context;
  const config = sessionConfig.cookieCache;
  const raw = readChunkedCookie(ctx, authCookies.sessionData.name);
  if (!raw) return null;
  const signer = findService(ctx.context, COOKIE_CACHE_SIGNER);
  const cache = await decodeCookieCache(config.strategy, raw, secret, dateFields(schema), signer);
  if (cache && (await isUsable(config, cache, token))) return { session: cache.payload.session, user: cache.payload.user };
  expireCookieCache(ctx);
  return null;
}

/**
 * Expires the cache cookie and the chunks the request holds (a chunked cache left behind
 * would be decoded, and refused, on every request until it expired on its own).
 */
export function expireCookieCache(ctx: EndpointContext): void {
  const spec = ctx.context.authCookies.sessionData;
  ctx.expireCookie(spec);
  for (const name of requestChunkNames(ctx, spec.name)) {
    if (name !== spec.name) ctx.setCookie(name, "", { ...spec.attributes, maxAge: 0 });
  }
}

/**
 * With the cache off, clears a cache cookie the browser still holds from when it was on
 * (spec: "a leftover one is cleared when the cache is off"). Costs one cookie lookup (and a
 * substring test) when there is none, which is the hot path of `/get-session`.
 */
export function clearLeftoverCookieCache(ctx: EndpointContext): void {
  const spec = ctx.context.authCookies.sessionData;
  if (readChunkedCookie(ctx, spec.name) !== null) clearChunkedCookie(ctx, spec.name, spec.attributes);
}
