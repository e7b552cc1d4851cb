import * as v from "valibot";
import { endpoint } from "../api/endpoint.js";

const query = v.optional(v.looseObject({ error: v.optional(v.unknown()), error_description: v.optional(v.unknown()) }));

/** Only plain codes are shown; anything else could inject markup. */
const safeCode = (value: unknown): string =>
  typeof value === "string" && /^['A-Za-z0-9_-]+$/.test(value) ? value : "UNKNOWN";

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const escapeHTML = (text: string): string => text.slice(0, 500).replace(/[&<>"']/g, (ch) => ESCAPES[ch]!);

/** `GET /error`: the page OAuth errors land on, or a redirect to `onAPIError.errorURL`. */
export const errorPage = endpoint("/error", { method: "GET", query }, (ctx) => {
  const code = safeCode(ctx.query?.error);
  const description = typeof ctx.query?.error_description === "string" ? escapeHTML(ctx.query.error_description) : "";
  const target = ctx.context.options.onAPIError?.errorURL;
  if (target) {
    const url = new URL(target, ctx.context.baseURL || "http://localhost");
    url.searchParams.set("error", code);
    throw ctx.redirect(target.startsWith("/") ? `${url.pathname}${url.search}` : url.toString());
  }
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Error</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="font-family: system-ui, sans-serif; max-width: 32rem; margin: 4rem auto; padding: 0 1rem">
<h1>Something went wrong</h1><p>Error code: <code>${code}</code></p>${description ? `<p>${description}</p>` : ""}
<p><a href="/">Back to the start page</a></p></body></html>`;
  return new Response(html, { headers: { "content-type": "text/html" } });
});
