import type { Captured } from "./capture.ts";
import type { ParsedCookie } from "./cookies.ts";

/** Keys holding generated values: 32 alphanumerics in both implementations (core.md §3). */
const GENERATED_KEYS = new Set(["id", "userId", "token"]);
const GENERATED = /^[A-Za-z0-9]{32}$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
// `<token>.<base64 HMAC-SHA256>`, percent-encoded on the wire (core.md §6.3).
const SIGNED_TOKEN = /^([A-Za-z0-9]{32})\.[A-Za-z0-9+/]{43}=$/;

/**
 * Values already stored before the request (ids, tokens, timestamps of seeded rows). Both
 * sides must echo these literally; only values minted by the request itself are masked.
 */
export type KnownValues = ReadonlySet<string>;

/**
 * Replaces values each side mints on its own (new ids, new session tokens, new timestamps)
 * with a tag naming their format, and keeps everything else literally, stored values
 * included. A minted value of the wrong format stays literal, so it still shows up.
 */
export function normalizeJson(value: unknown, known: KnownValues, key?: string): unknown {
  if (Array.isArray(value)) return value.map((v) => normalizeJson(v, known));
  if (value && typeof value === "object") {
    const entries = Object.entries(value).sort(([a], [b]) => a.localeCompare(b));
    return Object.fromEntries(entries.map(([k, v]) => [k, normalizeJson(v, known, k)]));
  }
  if (typeof value === "string" && !known.has(value)) {
    if (key && GENERATED_KEYS.has(key) && GENERATED.test(value)) return "<new-id32>";
    if (ISO_DATE.test(value)) return "<new-iso-date>";
  }
  return value;
}

/** A cookie whose value is reduced to a tag when it carries a newly minted session token. */
export function normalizeCookie(cookie: ParsedCookie, known: KnownValues): ParsedCookie {
  const signed = SIGNED_TOKEN.exec(decodeURIComponent(cookie.value));
  const value = signed?.[1] && !known.has(signed[1]) ? "<signed-new-session-token>" : cookie.value;
  const attributes = { ...cookie.attributes };
  if (typeof attributes.expires === "string") attributes.expires = "<http-date>";
  return { name: cookie.name, value, attributes };
}

/** Everything compared between the two responses, normalised, cookies sorted by name. */
export function normalizeCaptured(captured: Captured, known: KnownValues = new Set()): Captured {
  return {
    ...captured,
    body: captured.bodyKind === "json" ? normalizeJson(captured.body, known) : captured.body,
    setCookie: captured.setCookie
      .map((c) => normalizeCookie(c, known))
      .sort((a, b) => a.name.localeCompare(b.name)),
  };
}
