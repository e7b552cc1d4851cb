import { serve, type ServerType } from "@hono/node-server";
import { Hono } from "hono";
import type { AddressInfo } from "node:net";
import { QR_MAX_LENGTH, qrDataURL, webAuthnBrowserScript } from "./browser-assets.js";
import type { CaptchaConfig } from "./config.js";
import type { Outbox } from "./outbox.js";
import { withCaptchaWidget } from "./pages/captcha-widget.js";
import { renderAdminPage } from "./pages/admin.js";
import { renderHomePage } from "./pages/home.js";
import { renderInvitationPage } from "./pages/invitation.js";
import { renderOAuthConsentPage } from "./pages/oauth-consent.js";
import { renderOAuthSignInPage } from "./pages/oauth-sign-in.js";
import { renderOrganizationsPage } from "./pages/organizations.js";
import { renderOutboxPage } from "./pages/outbox.js";
import { renderResetPasswordPage } from "./pages/reset-password.js";
import { renderSecurityPage } from "./pages/security.js";
import { renderSignInPage } from "./pages/sign-in.js";
import { renderTwoFactorPage } from "./pages/two-factor.js";

/**
 * What the demo needs from an auth instance: its web-standard fetch handler, and the session a
 * request's headers carry (a cookie, or an API key in `x-api-key`).
 */
export interface AuthHandler {
  handler(request: Request): Promise<Response>;
  api: {
    getSession(input: { headers: Headers }): Promise<{ user: { id: string; email: string; name: string } } | null>;
  };
}

/** Pages with forms that post to the captcha-guarded routes (sign-up, sign-in, password reset). */
const CAPTCHA_PAGES = new Set(["/", "/oauth/sign-in"]);

/**
 * The demo's routes: every `/api/auth/*` request goes to `auth.handler`; the pages;
 * `GET /demo/outbox`, the mails as JSON (a demo has no mail server, so anyone who can open the
 * page can read them: never run it with real users); `POST /demo/qr`, `{ text }` drawn as a QR
 * code (`{ dataURL }`); `GET /demo/webauthn.js`, the WebAuthn browser helpers; and
 * `GET /demo/api/me`, an API route for API keys (`x-api-key`): who the key acts as. With
 * `captcha`, the pages whose forms reach the guarded routes carry the provider's widget.
 */
export function createDemoApp(auth: AuthHandler, outbox: Outbox, captcha?: Pick<CaptchaConfig, "provider" | "siteKey">): Hono {
  const app = new Hono();
  const pages = {
    "/": renderHomePage(),
    "/sign-in": renderSignInPage(),
    "/outbox": renderOutboxPage(),
    "/organizations": renderOrganizationsPage(),
    "/invitation": renderInvitationPage(),
    "/reset-password": renderResetPasswordPage(),
    "/security": renderSecurityPage(),
    "/two-factor": renderTwoFactorPage(),
    "/admin": renderAdminPage(),
    "/oauth/sign-in": renderOAuthSignInPage(),
    "/oauth/consent": renderOAuthConsentPage(),
  };
  if (captcha) for (const path of CAPTCHA_PAGES) pages[path as keyof typeof pages] = withCaptchaWidget(pages[path as keyof typeof pages], captcha);
  const webAuthnScript = webAuthnBrowserScript();
  app.all("/api/auth/*", (c) => auth.handler(c.req.raw));
  for (const [path, html] of Object.entries(pages)) app.get(path, (c) => c.html(html));
  app.get("/demo/outbox", (c) => c.json(outbox.list(), 200, { "cache-control": "no-store" }));
  app.get("/demo/api/me", async (c) => {
    if (!c.req.header("x-api-key")) return c.json({ message: "Send an API key in x-api-key" }, 401);
    const session = await auth.api.getSession({ headers: c.req.raw.headers }).catch(() => null);
    if (!session) return c.json({ message: "Invalid API key" }, 401);
    const { id, email, name } = session.user;
    return c.json({ user: { id, email, name } }, 200, { "cache-control": "no-store" });
  });
  app.post("/demo/qr", async (c) => {
    const body: unknown = await c.req.json().catch(() => null);
    const text = typeof body === "object" && body !== null && "text" in body ? body.text : undefined;
    if (typeof text !== "string" || text === "" || text.length > QR_MAX_LENGTH)
      return c.json({ message: `text must be a string of 1 to ${QR_MAX_LENGTH} characters` }, 400);
    return c.json({ dataURL: await qrDataURL(text) }, 200, { "cache-control": "no-store" });
  });
  app.get("/demo/webauthn.js", (c) =>
    c.body(webAuthnScript, 200, { "content-type": "text/javascript; charset=utf-8" }),
  );
  return app;
}

/** Serves `app` on `port` (0 picks a free one) and resolves once it is listening. */
export function listen(app: Hono, port: number): Promise<{ server: ServerType; port: number }> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, port }, (info: AddressInfo) =>
      resolve({ server, port: info.port }),
    );
    server.once("error", reject);
  });
}
