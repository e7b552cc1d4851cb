import type { CaptchaOptions, VercelBotIdOptions } from "./options.js";
import type { SiteVerifyAnswer, SiteVerifyRequest } from "./site-verify.js";

type TokenOptions = Exclude<CaptchaOptions, VercelBotIdOptions>;

/** Each provider's siteverify endpoint (reference). */
export const SITE_VERIFY_URLS: Record<TokenOptions["provider"], string> = {
  "cloudflare-turnstile": "https://challenges.cloudflare.com/turnstile/v0/siteverify",
  "google-recaptcha": "https://www.google.com/recaptcha/api/siteverify",
  hcaptcha: "https://api.hcaptcha.com/siteverify",
  captchafox: "https://api.captchafox.com/siteverify",
};

/**
 * The siteverify request for one token. Turnstile takes JSON, the others a form; CaptchaFox
 * spells the address field `remoteIp`. The address is sent only when known.
 */
export function siteVerifyRequest(
  options: TokenOptions,
  token: string,
  remoteIP: string | undefined,
  timeout: number,
): SiteVerifyRequest {
  const url = options.siteVerifyURLOverride || SITE_VERIFY_URLS[options.provider];
  const base = { secret: options.secretKey, response: token };
  switch (options.provider) {
    case "cloudflare-turnstile":
      return { url, timeout, encoding: "json", fields: { ...base, remoteip: remoteIP } };
    case "google-recaptcha":
      return { url, timeout, encoding: "form", fields: { ...base, remoteip: remoteIP } };
    case "hcaptcha":
      return { url, timeout, encoding: "form", fields: { ...base, sitekey: options.siteKey || undefined, remoteip: remoteIP } };
    case "captchafox":
      return { url, timeout, encoding: "form", fields: { ...base, sitekey: options.siteKey || undefined, remoteIp: remoteIP } };
  }
}

/** Whether the answer's hostname is one of the allowed ones (no list: any). */
const hostnameAllowed = (allowed: string[] | undefined, answer: SiteVerifyAnswer): boolean =>
  !allowed?.length || (typeof answer.hostname === "string" && allowed.includes(answer.hostname));

/**
 * The verdict on a siteverify answer: `success` must be `true`; reCAPTCHA v3 answers (those
 * with a numeric `score`) need `score >= minScore`; an expected action and a hostname list,
 * when configured, must match (they stop a token made for another form or site being replayed).
 */
export function accepted(options: TokenOptions, answer: SiteVerifyAnswer): boolean {
  if (answer.success !== true) return false;
  switch (options.provider) {
    case "google-recaptcha": {
      if (typeof answer.score === "number" && answer.score < (options.minScore ?? 0.5)) return false;
      if (options.expectedAction && answer.action !== options.expectedAction) return false;
      return hostnameAllowed(options.allowedHostnames, answer);
    }
    case "cloudflare-turnstile":
      if (options.expectedAction && answer.action !== options.expectedAction) return false;
      return hostnameAllowed(options.allowedHostnames, answer);
    default:
      return true;
  }
}
