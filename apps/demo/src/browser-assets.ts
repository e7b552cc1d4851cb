import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import QRCode from "qrcode";

/**
 * `@simplewebauthn/browser`'s prebuilt browser bundle: a classic script that defines the global
 * `SimpleWebAuthnBrowser` (`startRegistration`, `startAuthentication`). Served as is, so the
 * pages need no build step.
 */
export function webAuthnBrowserScript(): string {
  const entry = createRequire(import.meta.url).resolve("@simplewebauthn/browser");
  return readFileSync(join(dirname(entry), "../dist/bundle/index.umd.min.js"), "utf8");
}

/** The longest text {@link qrDataURL} encodes; an otpauth URI is far shorter. */
export const QR_MAX_LENGTH = 1000;

/** `text` as a QR code, a PNG data URL for an `<img>` (rendered on the server, nothing kept). */
export function qrDataURL(text: string): Promise<string> {
  return QRCode.toDataURL(text, { errorCorrectionLevel: "M", margin: 2, scale: 5 });
}
