import { oauthProvider as referenceOAuthProvider } from "@better-auth/oauth-provider";
import { jwt as referenceJwt } from "better-auth/plugins";
import { jwt } from "@latchkey/jwt";
import { oauthProvider, type OAuthOptions } from "@latchkey/oauth-provider";
import { afterEach, expect } from "vitest";
import { BASE_URL, createPair, jsonPost, url, type Handler, type Pair } from "./instances.ts";

// Shared parts of the oauth-provider compat files: the pair with both providers, PKCE, and the
// flows a relying party runs (registration, authorization with consent, token requests).
export const ISSUER = `${BASE_URL}/api/auth`;
export const REDIRECT = "https://client.example.com/callback";
export const OPTIONS: OAuthOptions = { loginPage: "/login", consentPage: "/consent", allowDynamicClientRegistration: true };


/** Both providers (with `jwt()`) on one database; the caller closes the pair. */
export async function pairWith(options: Partial<OAuthOptions> = {}): Promise<Pair> {
  const merged = { ...OPTIONS, ...options };
  return createPair({
    reference: { plugins: [referenceJwt(), referenceOAuthProvider(merged as Parameters<typeof referenceOAuthProvider>[0])] },
    latchkey: { plugins: [jwt(), oauthProvider(merged)] },
  });
}

export const ada = { email: "ada@example.com", password: "correct horse battery", name: "Ada Lovelace" };

/** An RFC 7636 verifier and its S256 challenge. */
export async function pkce(): Promise<{ verifier: string; challenge: string }> {
  const verifier = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier)));
  return { verifier, challenge: Buffer.from(digest).toString("base64url") };
}

export interface Registered {
  client_id: string;
  client_secret: string;
}

/** DCR by a signed-in user on `handler`. */
export async function register(handler: Handler, cookie: string, body: Record<string, unknown> = {}): Promise<Registered> {
  const res = await handler(
    jsonPost("/oauth2/register", { redirect_uris: [REDIRECT], client_name: "RP", grant_types: ["authorization_code", "refresh_token"], ...body }, { cookie }),
  );
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as Registered;
}

/** The code of an authorization on `handler` (consent given through `/oauth2/consent` when asked). */
export async function authorize(handler: Handler, cookie: string, clientId: string, challenge: string, extra: Record<string, string> = {}): Promise<string> {
  const query = new URLSearchParams({
    response_type: "code",
    client_id: clientId,
    redirect_uri: REDIRECT,
    scope: "openid profile email offline_access",
    state: "st",
    code_challenge: challenge,
    code_challenge_method: "S256",
    ...extra,
  });
  const res = await handler(new Request(url(`/oauth2/authorize?${query}`), { headers: { cookie } }));
  expect(res.status).toBe(302);
  let location = new URL(res.headers.get("location")!, BASE_URL);
  if (location.pathname === "/consent") {
    const consent = await handler(jsonPost("/oauth2/consent", { accept: true, oauth_query: location.search.slice(1) }, { cookie }));
    expect(consent.status, await consent.clone().text()).toBe(200);
    location = new URL(((await consent.json()) as { url: string }).url);
  }
  const code = location.searchParams.get("code");
  expect(code, location.href).toBeTruthy();
  return code!;
}

const basic = (c: Registered) => `Basic ${Buffer.from(`${c.client_id}:${c.client_secret}`).toString("base64")}`;

/** A form POST to the token-family routes with Basic credentials. */
export function form(path: string, fields: Record<string, string>, c?: Registered): Request {
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded" };
  if (c) headers.authorization = basic(c);
  return new Request(url(path), { method: "POST", headers, body: new URLSearchParams(fields).toString() });
}

export const redeem = (handler: Handler, c: Registered, code: string, verifier: string) =>
  handler(form("/oauth2/token", { grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: REDIRECT }, c));

export async function answer(res: Response): Promise<{ status: number; body: unknown; noStore: boolean }> {
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as unknown) : undefined, noStore: res.headers.get("cache-control") === "no-store" };
}


/** `pairWith` for a test file: each pair made is closed after its test (call at module level). */
export function pairPerTest(): (options?: Partial<OAuthOptions>) => Promise<Pair> {
  let current: Pair | undefined;
  afterEach(() => {
    current?.close();
    current = undefined;
  });
  return async (options = {}) => (current = await pairWith(options));
}
