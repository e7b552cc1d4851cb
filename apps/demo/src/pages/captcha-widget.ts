import { CAPTCHA_GUARDED_PATHS, type CaptchaConfig } from "../config.js";

/** Each provider's widget script and the class its auto-rendered container carries. */
const WIDGETS: Record<CaptchaConfig["provider"], { script: string; className: string; global: string }> = {
  "cloudflare-turnstile": {
    script: "https://challenges.cloudflare.com/turnstile/v0/api.js",
    className: "cf-turnstile",
    global: "turnstile",
  },
  "google-recaptcha": { script: "https://www.google.com/recaptcha/api.js", className: "g-recaptcha", global: "grecaptcha" },
  hcaptcha: { script: "https://js.hcaptcha.com/1/api.js", className: "h-captcha", global: "hcaptcha" },
};

/** The widget's script URL for `provider` (the e2e test serves its own widget there). */
export function captchaWidgetScript(provider: CaptchaConfig["provider"]): string {
  return WIDGETS[provider].script;
}

/**
 * Puts the provider's captcha widget on a page, above its forms. The widget hands its token to
 * `window.demoCaptcha`, where the pages' `call` helper picks it up as `x-captcha-response` for
 * the guarded routes; a token is good for one request, so the widget is reset after each use.
 */
export function withCaptchaWidget(html: string, { provider, siteKey }: Pick<CaptchaConfig, "provider" | "siteKey">): string {
  const widget = WIDGETS[provider];
  const markup = `<div id="captcha" class="${widget.className}" data-sitekey="${escapeAttribute(siteKey)}" data-callback="demoCaptchaSolved" data-expired-callback="demoCaptchaExpired"></div>
<script>
window.demoCaptcha = {
  token: null,
  paths: ${JSON.stringify(CAPTCHA_GUARDED_PATHS)},
  used() { this.token = null; if (window.${widget.global}) window.${widget.global}.reset(); },
};
function demoCaptchaSolved(token) { window.demoCaptcha.token = token; }
function demoCaptchaExpired() { window.demoCaptcha.token = null; }
</script>
<script src="${widget.script}" async defer></script>
`;
  return html.replace('<p id="error"', `${markup}<p id="error"`);
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
}
