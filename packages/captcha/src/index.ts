import type { LatchkeyPlugin } from "@latchkey/core";
import { captchaCheck } from "./check.js";
import { CAPTCHA_ERROR_CODES } from "./error-codes.js";
import { resolveCaptchaOptions, type CaptchaOptions } from "./options.js";

export { CAPTCHA_ERROR_CODES } from "./error-codes.js";
export { CAPTCHA_HEADER } from "./check.js";
export { DEFAULT_ENDPOINTS, compileRule } from "./endpoint-rules.js";
export { SITE_VERIFY_URLS } from "./providers.js";
export type {
  BaseCaptchaOptions,
  BotIdVerification,
  CaptchaFoxOptions,
  CaptchaOptions,
  CaptchaProvider,
  CloudflareTurnstileOptions,
  GoogleRecaptchaOptions,
  HCaptchaOptions,
  VercelBotIdOptions,
} from "./options.js";

/** The plugin object `captcha()` returns. */
export interface CaptchaPlugin extends LatchkeyPlugin<"captcha"> {
  id: "captcha";
  options: CaptchaOptions;
}

/**
 * Puts a captcha in front of chosen routes: the browser sends the widget's token in the
 * `x-captcha-response` header and the provider's siteverify endpoint judges it before the
 * route runs.
 *
 * @example
 * const auth = createAuth({
 *   ...options,
 *   plugins: [captcha({ provider: "cloudflare-turnstile", secretKey: process.env.TURNSTILE_SECRET! })],
 * });
 */
export function captcha(options: CaptchaOptions): CaptchaPlugin {
  const resolved = resolveCaptchaOptions(options);
  return {
    id: "captcha",
    errorCodes: CAPTCHA_ERROR_CODES,
    onRequest: async (request, ctx) => {
      const response = await captchaCheck(request, ctx, resolved);
      return response ? { response } : undefined;
    },
    options,
  };
}
