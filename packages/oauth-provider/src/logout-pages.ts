import type { EndpointContext } from "@latchkey/core";

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const escapeHtml = (value: string): string => value.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character]!);

/**
 * Whether the request is a browser navigation (the reference's test): not a script's fetch
 * (`Sec-Fetch-Mode: cors`), and a navigation or a caller that accepts HTML.
 */
export function isBrowserNavigation(ctx: EndpointContext): boolean {
  const mode = ctx.headers.get("sec-fetch-mode");
  if (mode === "cors") return false;
  const accept = ctx.headers.get("accept") ?? "";
  return mode === "navigate" || accept.includes("text/html") || accept.includes("application/xhtml+xml");
}

/** An HTML page of the logout flow: never cached, no script, no framing, forms posting here only. */
function page(title: string, body: string, status = 200): Response {
  return new Response(
    `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body>${body}</body></html>`,
    {
      status,
      headers: {
        "cache-control": "no-store",
        "content-security-policy": "default-src 'none'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
        "content-type": "text/html; charset=utf-8",
        pragma: "no-cache",
        "x-content-type-options": "nosniff",
      },
    },
  );
}

/** The URL the confirmation form posts to. */
export const confirmationURL = (ctx: EndpointContext): string => `${ctx.context.baseURL.replace(/\/$/, "")}/oauth2/end-session/confirm`;

/** Asks the user to confirm; the form posts `action=confirm` to the confirm route. */
export const confirmationPage = (ctx: EndpointContext): Response =>
  page(
    "Confirm logout",
    `<main><h1>Confirm logout</h1><p>Do you want to log out of this account?</p><form method="post" data-oidc-logout-confirmation action="${escapeHtml(confirmationURL(ctx))}"><button type="submit" name="action" value="confirm">Confirm logout</button></form></main>`,
  );

/** Logged out, with a note when the requested redirect was not registered. */
export const loggedOutPage = (redirectRefused: boolean): Response =>
  page(
    "Logged out",
    `<main><p data-oidc-logout-state="logged-out">${redirectRefused ? "Logged out. The requested post-logout redirect was not registered." : "Logged out."}</p></main>`,
  );

/** A logout error shown to a browser. */
export const logoutErrorPage = (description: string, status: number): Response =>
  page("Logout error", `<main><h1>Logout error</h1><p data-oidc-logout-state="error">${escapeHtml(description)}</p></main>`, status);
