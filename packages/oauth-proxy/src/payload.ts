import * as v from "valibot";
import { symmetricDecrypt, symmetricEncrypt } from "@latchkey/core";
import { OAUTH_PROXY_ERROR_CODES as E, type OAuthProxyErrorCode } from "./error-codes.js";

// The reference parses the payload with a JSON reader that turns every ISO-8601 string into
// a Date; only the account's expiry fields need one, so only they are converted here.
const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,7})?(?:Z|[+-]\d{2}:\d{2})$/;
const isoDate = v.pipe(
  v.union([
    v.date(),
    v.pipe(
      v.string(),
      v.regex(ISO_DATE),
      v.transform((s) => new Date(s)),
    ),
  ]),
  v.check((d) => !Number.isNaN(d.getTime())),
);
const optionalString = v.nullish(v.string());

// The reference's passthrough schema: its user and account models minus what production
// cannot know (ids, timestamps). Unknown keys pass, so either side may add fields.
const payloadSchema = v.looseObject({
  userInfo: v.looseObject({
    id: v.string(),
    email: v.pipe(v.string(), v.toLowerCase()),
    emailVerified: v.optional(v.boolean(), false),
    name: v.string(),
    image: optionalString,
  }),
  account: v.looseObject({
    providerId: v.string(),
    accountId: v.string(),
    accessToken: optionalString,
    refreshToken: optionalString,
    idToken: optionalString,
    accessTokenExpiresAt: v.nullish(isoDate),
    refreshTokenExpiresAt: v.nullish(isoDate),
    scope: optionalString,
  }),
  profile: v.optional(v.record(v.string(), v.unknown())),
  scopes: v.optional(v.array(v.string())),
  state: v.pipe(v.string(), v.minLength(1)),
  callbackURL: v.pipe(v.string(), v.minLength(1)),
  newUserURL: v.optional(v.string()),
  errorURL: v.optional(v.string()),
  disableSignUp: v.optional(v.boolean()),
  timestamp: v.number(),
});

/**
 * What production hands the preview deployment: the provider's user and tokens, the flow's
 * state and redirect targets, and when it was made. Wire format shared with the reference.
 */
export type ProxyPayload = v.InferOutput<typeof payloadSchema>;

/** What production writes: dates as Dates (they serialise as ISO strings). */
export type ProxyPayloadInput = v.InferInput<typeof payloadSchema>;

/** Seconds of clock skew tolerated for a payload stamped in the future (reference: 10). */
const FUTURE_SKEW_SECONDS = 10;

/** Encrypts a payload for the completion route's `profile` parameter. */
export function sealPayload(key: string, payload: ProxyPayloadInput): Promise<string> {
  return symmetricEncrypt({ key, data: JSON.stringify(payload) });
}

function parseJSON(text: string): unknown {
  // A `__proto__` key is refused outright, as the reference's strict reader does.
  return JSON.parse(text, (name, value: unknown) => {
    if (name === "__proto__") throw new SyntaxError("forbidden key");
    return value;
  });
}

/**
 * Decrypts and checks a `profile` parameter. The error code separates a payload nobody with
 * the secret wrote (`invalid_profile`: the AEAD tag failed) from one of the wrong shape.
 */
export async function openPayload(
  key: string,
  profile: string,
): Promise<
  { payload: ProxyPayload; error?: undefined } | { payload?: undefined; error: OAuthProxyErrorCode }
> {
  let text: string;
  try {
    text = await symmetricDecrypt({ key, data: profile });
  } catch {
    return { error: E.INVALID_PROFILE };
  }
  let value: unknown;
  try {
    value = parseJSON(text);
  } catch {
    return { error: E.INVALID_PAYLOAD };
  }
  const parsed = v.safeParse(payloadSchema, value);
  return parsed.success ? { payload: parsed.output } : { error: E.INVALID_PAYLOAD };
}

/**
 * Whether a payload is recent: at most `maxAge` seconds old. The profile travels in a URL
 * (history, logs, referrers), so its lifetime is kept to the one redirect it is made for.
 */
export function isFresh(payload: ProxyPayload, maxAge: number, now = Date.now()): boolean {
  const age = (now - payload.timestamp) / 1000;
  return age <= maxAge && age >= -FUTURE_SKEW_SECONDS;
}
