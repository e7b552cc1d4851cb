import { DEFAULT_FETCH_TIMEOUT_MS } from "@latchkey/core";
import { compileRules, DEFAULT_ENDPOINTS, type EndpointRule } from "./endpoint-rules.js";

/** Options every site-verify provider takes (reference names). */
export interface BaseCaptchaOptions {
  /** The provider's secret key, sent as `secret` to its siteverify endpoint. */
  secretKey: string;
  /**
   * Auth paths (without the base path) the check guards: full paths, or patterns where `*`
   * is any characters within one segment and `**` any number of segments.
   * @default ["/sign-up/email", "/sign-in/email", "/request-password-reset"]
   */
  endpoints?: string[] | undefined;
  /** Another siteverify URL (a proxy, or a local stub in tests). @default the provider's */
  siteVerifyURLOverride?: string | undefined;
  /**
   * Latchkey only: milliseconds until a siteverify request is given up (the check then fails
   * closed with 500 `UNKNOWN_ERROR`). @default 10000
   */
  verifyTimeout?: number | undefined;
}

/** Google reCAPTCHA v2 or v3. */
export interface GoogleRecaptchaOptions extends BaseCaptchaOptions {
  provider: "google-recaptcha";
  /** Lowest v3 `score` accepted (v2 answers carry none). @default 0.5 */
  minScore?: number | undefined;
  /** The v3 `action` the token must have been made for. @default any */
  expectedAction?: string | undefined;
  /** Hostnames the token must have been issued on. @default any */
  allowedHostnames?: string[] | undefined;
}

/** Cloudflare Turnstile. */
export interface CloudflareTurnstileOptions extends BaseCaptchaOptions {
  provider: "cloudflare-turnstile";
  /** The widget `action` the token must carry. @default any */
  expectedAction?: string | undefined;
  /** Hostnames the token must have been issued on. @default any */
  allowedHostnames?: string[] | undefined;
}

/** hCaptcha. */
export interface HCaptchaOptions extends BaseCaptchaOptions {
  provider: "hcaptcha";
  /** Sent as `sitekey`, so hCaptcha checks the token belongs to it. */
  siteKey?: string | undefined;
}

/** CaptchaFox. */
export interface CaptchaFoxOptions extends BaseCaptchaOptions {
  provider: "captchafox";
  /** Sent as `sitekey`. */
  siteKey?: string | undefined;
}

/** Vercel BotID's verdict on the current request. */
export interface BotIdVerification {
  isBot: boolean;
  isVerifiedBot?: boolean | undefined;
  verifiedBotName?: string | undefined;
  verifiedBotCategory?: string | undefined;
}

/** Vercel BotID: no token, the platform judges the request. */
export interface VercelBotIdOptions {
  provider: "vercel-botid";
  /** Auth paths to guard, as for the other providers. */
  endpoints?: string[] | undefined;
  /** Vercel's server-side check (`checkBotId` from `botid/server`). */
  checkBotId: () => Promise<BotIdVerification>;
  /** Replaces the default decision `isBot === false`; `true` lets the request through. */
  validateRequest?: ((ctx: { request: Request; verification: BotIdVerification }) => boolean | Promise<boolean>) | undefined;
  /** Latchkey only: milliseconds the check may take. @default 10000 */
  verifyTimeout?: number | undefined;
}

/** Options of `captcha()`: one provider and its settings. */
export type CaptchaOptions =
  | GoogleRecaptchaOptions
  | CloudflareTurnstileOptions
  | HCaptchaOptions
  | CaptchaFoxOptions
  | VercelBotIdOptions;

/** The provider ids. */
export type CaptchaProvider = CaptchaOptions["provider"];

/** The options with the rules compiled and the defaults applied. */
export interface ResolvedCaptchaOptions {
  options: CaptchaOptions;
  covers: EndpointRule;
  timeout: number;
}

const PROVIDERS = new Set<string>(["google-recaptcha", "cloudflare-turnstile", "hcaptcha", "captchafox", "vercel-botid"]);

/**
 * Checks the options once, when the plugin is made. The reference finds a missing secret key
 * only when a request arrives (500 each time); here it stops the start-up.
 */
export function resolveCaptchaOptions(options: CaptchaOptions): ResolvedCaptchaOptions {
  if (!options || !PROVIDERS.has(options.provider)) {
    throw new TypeError(`captcha: provider must be one of ${[...PROVIDERS].join(", ")}`);
  }
  if (options.provider === "vercel-botid") {
    if (typeof options.checkBotId !== "function") throw new TypeError("captcha: vercel-botid needs checkBotId");
  } else if (!options.secretKey) {
    throw new TypeError("captcha: secretKey is required");
  }
  const timeout = options.verifyTimeout ?? DEFAULT_FETCH_TIMEOUT_MS;
  if (!Number.isFinite(timeout) || timeout <= 0) throw new TypeError("captcha: verifyTimeout must be a positive number");
  const rules = options.endpoints?.length ? options.endpoints : DEFAULT_ENDPOINTS;
  return { options, covers: compileRules(rules), timeout };
}
