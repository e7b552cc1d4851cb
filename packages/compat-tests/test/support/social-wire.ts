import type { Browser } from "@latchkey/test-support";
import { responseCookies, type ParsedCookie } from "./cookies.ts";
import { url } from "./instances.ts";
import { restoreTables, snapshotTables } from "./tables.ts";
import type { SocialPair, Side } from "./social-pair.ts";

/** Both sides' results of one scenario. */
export interface BothResults<T> {
  reference: T;
  latchkey: T;
}

/**
 * Runs `scenario` on each side from the same stored rows (the tables are restored after
 * each run), so the two answers can be compared as answers to one request.
 */
export async function onBoth<T>(
  pair: SocialPair,
  scenario: (side: Side) => Promise<T>,
): Promise<BothResults<T>> {
  const before = snapshotTables(pair.db);
  const reference = await scenario("reference");
  restoreTables(pair.db, before);
  const latchkey = await scenario("latchkey");
  restoreTables(pair.db, before);
  return { reference, latchkey };
}

const URL_SAFE = /^[A-Za-z0-9_-]+$/;

/** A value each side mints itself, reduced to its format: length and alphabet. */
export const minted = (value: string | null | undefined): string =>
  value == null ? String(value) : `<${URL_SAFE.test(value) ? "url-safe" : "other"}:${value.length}>`;

/** An authorization URL with its minted parameters (state, nonce, PKCE challenge) reduced to their format. */
export function describeAuthorizeURL(href: string): { endpoint: string; params: Record<string, string> } {
  const parsed = new URL(href);
  const params: Record<string, string> = {};
  for (const [key, value] of [...parsed.searchParams].sort(([a], [b]) => a.localeCompare(b))) {
    params[key] = ["state", "nonce", "code_challenge"].includes(key) ? minted(value) : value;
  }
  return { endpoint: `${parsed.origin}${parsed.pathname}`, params };
}

/** Set-Cookie lines, values masked when minted (the signed state) or kept when empty (expiry). */
export function describeCookies(response: Response): ParsedCookie[] {
  return responseCookies(response)
    .map((c) => ({ ...c, value: c.value === "" ? "" : "<value>" }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** A callback answer: status, where it redirects, the cookies it sets (minted values masked), the body. */
export async function describeRedirect(response: Response) {
  return {
    status: response.status,
    location: response.headers.get("location"),
    cookies: describeCookies(response),
    body: await response.text(),
  };
}

/** The stored OAuth state row for `state`, parsed, or undefined once consumed. */
export function stateRow(
  pair: SocialPair,
  state: string,
): { identifier: string; value: Record<string, unknown>; expiresAt: string } | undefined {
  const row = pair.db.prepare(`SELECT * FROM "verification" WHERE "identifier" = ?`).all([state])[0] as
    { identifier: string; value: string; expiresAt: string } | undefined;
  return row && { ...row, value: JSON.parse(row.value) as Record<string, unknown> };
}

/** Starts a flow in `browser` and answers the state it stored. */
export async function startedState(
  browser: Browser,
  body: Record<string, unknown> = {},
): Promise<{ state: string; url: string }> {
  const response = await browser.post(url("/sign-in/social"), {
    provider: "idp",
    callbackURL: "/dashboard",
    ...body,
  });
  if (response.status !== 200) throw new Error(`sign-in/social: ${response.status} ${await response.text()}`);
  const authorizeURL = ((await response.json()) as { url: string }).url;
  return { state: new URL(authorizeURL).searchParams.get("state") ?? "", url: authorizeURL };
}
