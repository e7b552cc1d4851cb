import { applicationCallbacks, type EndpointContext, type SessionWithUser } from "@latchkey/core";

/** How a token is kept in the verification table: as is, as its SHA-256, or by your hash. */
export type StoreTokenOption = "plain" | "hashed" | { type: "custom-hasher"; hash: (token: string) => Promise<string> };

/** Options of `oneTimeToken()`, under the reference's names. */
export interface OneTimeTokenOptions {
  /** Minutes a token stays valid. @default 3 */
  expiresIn?: number | undefined;
  /** Makes the token (default: 32 characters of `a-zA-Z0-9-_`). */
  generateToken?: ((session: SessionWithUser, ctx: EndpointContext) => Promise<string> | string) | undefined;
  /** How the token is stored. @default "plain" */
  storeToken?: StoreTokenOption | undefined;
  /** Refuse `/one-time-token/generate` over HTTP: only `auth.api.generateOneTimeToken` makes tokens. @default false */
  disableClientRequest?: boolean | undefined;
  /** `/one-time-token/verify` answers the session without setting the session cookie. @default false */
  disableSetSessionCookie?: boolean | undefined;
  /** Every response that creates a session also carries a token for it in the `set-ott` header. @default false */
  setOttHeaderOnNewSession?: boolean | undefined;
}

/** The options with defaults applied. */
export interface ResolvedOneTimeTokenOptions extends OneTimeTokenOptions {
  expiresInMs: number;
  storeToken: StoreTokenOption;
}

/** Applies the defaults once; a non-positive `expiresIn` or an unknown `storeToken` is a `TypeError`. */
export function resolveOneTimeTokenOptions(options: OneTimeTokenOptions = {}): ResolvedOneTimeTokenOptions {
  const minutes = options.expiresIn ?? 3;
  if (!Number.isFinite(minutes) || minutes <= 0) throw new TypeError("oneTimeToken: expiresIn must be a positive number of minutes");
  const storeToken = options.storeToken ?? "plain";
  const valid =
    storeToken === "plain" ||
    storeToken === "hashed" ||
    (typeof storeToken === "object" && storeToken.type === "custom-hasher" && typeof storeToken.hash === "function");
  if (!valid) throw new TypeError('oneTimeToken: storeToken must be "plain", "hashed" or { type: "custom-hasher", hash }');
  // Minutes, as the reference: `expiresIn: 5` is five minutes.
  // An application generator may refuse with an APIError of its own code.
  return { ...applicationCallbacks(options, ["generateToken"]), storeToken, expiresInMs: minutes * 60_000 };
}
