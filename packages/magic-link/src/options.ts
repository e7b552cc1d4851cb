import { applicationCallbacks, type EndpointContext } from "@latchkey/core";

/** What `sendMagicLink` receives (the reference's argument shape). */
export interface MagicLinkData {
  /** The address as the caller typed it. */
  email: string;
  /** The link to mail: `<baseURL>/magic-link/verify?token=…&callbackURL=…`. */
  url: string;
  /** The token inside the link, for apps that build their own URL. */
  token: string;
  /** `metadata` from the sign-in request, passed through untouched. */
  metadata?: Record<string, unknown> | undefined;
}

/** How tokens are written to the verification table. */
export type MagicLinkTokenStorage = "plain" | "hashed" | { type: "custom-hasher"; hash: (token: string) => Promise<string> | string };

/** Options of `magicLink()`, under the reference's names. */
export interface MagicLinkOptions {
  /** Mails the link. Required. It runs inside the request: the answer waits for it. */
  sendMagicLink: (data: MagicLinkData, ctx?: EndpointContext) => Promise<void> | void;
  /**
   * Seconds a link stays valid.
   * @default 300
   */
  expiresIn?: number | undefined;
  /**
   * Refuse links for addresses that have no user yet (`?error=new_user_signup_disabled`).
   * @default false
   */
  disableSignUp?: boolean | undefined;
  /** Makes the token; by default 32 random letters `[a-zA-Z]`. */
  generateToken?: ((email: string) => Promise<string> | string) | undefined;
  /**
   * How the token is stored as the verification row's `identifier`: as is, as its SHA-256
   * (base64url, no padding), or through your own hash.
   * @default "plain"
   */
  storeToken?: MagicLinkTokenStorage | undefined;
  /**
   * Requests per window on `/sign-in/magic-link*` and `/magic-link/verify*`.
   * @default { window: 60, max: 5 }
   */
  rateLimit?: { window?: number | undefined; max?: number | undefined } | undefined;
  /**
   * Accepted for compatibility and ignored: a link is consumed by its first use. Any value
   * other than 1 logs a warning when the plugin is made, as in the reference.
   * @default 1
   */
  allowedAttempts?: number | undefined;
}

/** `MagicLinkOptions` with every default applied. */
export interface ResolvedMagicLinkOptions {
  sendMagicLink: MagicLinkOptions["sendMagicLink"];
  expiresIn: number;
  disableSignUp: boolean;
  generateToken: ((email: string) => Promise<string> | string) | undefined;
  storeToken: MagicLinkTokenStorage;
  rateLimit: { window: number; max: number };
}

/** Applies the defaults once; a missing `sendMagicLink` or a bad number is a `TypeError`. */
export function resolveMagicLinkOptions(options: MagicLinkOptions): ResolvedMagicLinkOptions {
  if (typeof options?.sendMagicLink !== "function") throw new TypeError("magicLink: sendMagicLink is required");
  const expiresIn = options.expiresIn || 300;
  if (!Number.isFinite(expiresIn) || expiresIn <= 0) throw new TypeError("magicLink: expiresIn must be a positive number of seconds");
  const storeToken = options.storeToken ?? "plain";
  if (
    storeToken !== "plain" &&
    storeToken !== "hashed" &&
    !(typeof storeToken === "object" && storeToken.type === "custom-hasher" && typeof storeToken.hash === "function")
  ) {
    throw new TypeError('magicLink: storeToken must be "plain", "hashed" or { type: "custom-hasher", hash }');
  }
  if (options.allowedAttempts !== undefined && options.allowedAttempts !== 1) {
    // The reference warns the same way: a token is single-use whatever this says.
    console.warn("[latchkey/magic-link] `allowedAttempts` is ignored: a link is consumed by its first use.");
  }
  // The application's sender and generator may refuse with an APIError of their own code.
  const callbacks = applicationCallbacks(options, ["sendMagicLink", "generateToken"]);
  return {
    sendMagicLink: callbacks.sendMagicLink,
    expiresIn,
    disableSignUp: options.disableSignUp ?? false,
    generateToken: callbacks.generateToken,
    storeToken,
    rateLimit: { window: options.rateLimit?.window || 60, max: options.rateLimit?.max || 5 },
  };
}
