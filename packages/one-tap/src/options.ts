/** Google's published signing keys for ID tokens. */
export const GOOGLE_JWKS_URL = "https://www.googleapis.com/oauth2/v3/certs";

/** The two `iss` values Google writes into ID tokens (with and without the scheme). */
export const GOOGLE_ISSUERS = ["https://accounts.google.com", "accounts.google.com"];

/** Options of `oneTap()`, under the reference's names plus two Latchkey additions. */
export interface OneTapOptions {
  /**
   * The Google client id (or ids) a token's `aud` must name.
   * @default socialProviders.google.clientId
   */
  clientId?: string | string[] | undefined;
  /**
   * Refuse to create a user for an unknown Google account; existing users still sign in.
   * @default socialProviders.google.disableSignUp, else false
   */
  disableSignup?: boolean | undefined;
  /**
   * Latchkey addition: where the token's signing keys are fetched (cached, re-fetched on an
   * unknown `kid`). Point it at a local key set in tests; production keeps the default.
   * @default "https://www.googleapis.com/oauth2/v3/certs"
   */
  jwksURL?: string | undefined;
  /**
   * Latchkey addition: the accepted `iss` value(s).
   * @default ["https://accounts.google.com", "accounts.google.com"]
   */
  issuer?: string | string[] | undefined;
}

/** Options after defaults; `clientId` stays optional, it may come from `socialProviders.google`. */
export interface ResolvedOneTapOptions extends OneTapOptions {
  jwksURL: string;
  issuer: string | string[];
}

/** Applies the defaults once; a JWKS URL that does not parse is a `TypeError` at start-up. */
export function resolveOneTapOptions(options: OneTapOptions = {}): ResolvedOneTapOptions {
  const jwksURL = options.jwksURL ?? GOOGLE_JWKS_URL;
  if (!URL.canParse(jwksURL)) throw new TypeError("oneTap: jwksURL must be an absolute URL.");
  return { ...options, jwksURL, issuer: options.issuer ?? GOOGLE_ISSUERS };
}
