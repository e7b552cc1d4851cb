import { expect } from "vitest";
import type { OAuth2Tokens, OAuthProvider } from "@latchkey/core";
import { BASIC_AUTH } from "./basic-auth.ts";
import type { FakeProvider, ProviderAnswer, ProviderRequest } from "./fake-provider.ts";
import {
  BASE,
  CLIENT,
  providerInstance,
  signInThrough,
  type FlowResult,
  type ProviderInstance,
} from "./flow.ts";

/** Any provider module's result (its profile type aside). */
type AnyProvider = OAuthProvider<never> | OAuthProvider;

/** How the client authenticates at the token endpoint (RFC 6749 §2.3.1). */
export type ClientAuth = "basic" | "post";

/** Expects each named parameter to have its value, or (`null`) to be absent. */
export function expectParams(params: URLSearchParams, expected: Record<string, string | null>): void {
  expect(Object.fromEntries(Object.keys(expected).map((name) => [name, params.get(name)]))).toEqual(expected);
}

/**
 * Expects the token request's client authentication (`basic`: the Authorization header and no
 * secret in the form; `post`: the secret in the form and no header) and, when `pkce` is given,
 * a PKCE verifier (RFC 7636 §4.1) or none.
 */
export function expectTokenRequest(
  request: ProviderRequest | undefined,
  { auth, pkce }: { auth?: ClientAuth; pkce?: boolean },
): void {
  expect(request).toBeDefined();
  const { headers, form } = request!;
  if (auth === "basic") {
    expect(headers.authorization).toBe(BASIC_AUTH);
    expect(form.has("client_secret")).toBe(false);
  } else if (auth === "post") {
    expect(form.get("client_secret")).toBe(CLIENT.clientSecret);
    expect(headers.authorization).toBeUndefined();
  }
  if (pkce === true) expect(form.get("code_verifier")).toMatch(/^[\w-]{43,128}$/);
  if (pkce === false) expect(form.has("code_verifier")).toBe(false);
}

/** Expects a completed sign-in: back on the app page, `user` in the session, one account `account`. */
export function expectSignedIn(
  result: FlowResult,
  account: { providerId: string; accountId: string },
  user: Record<string, unknown>,
): void {
  expect(result.location.href).toBe(`${BASE}/dashboard`);
  expect(result.session?.user).toMatchObject(user);
  expect(result.accounts).toEqual([expect.objectContaining(account)]);
}

/** Signs in through `fake` and expects the app's error page with `error` and no session. */
export async function expectSignInError(
  instance: ProviderInstance,
  providerId: string,
  fake: FakeProvider,
  error = "unable_to_get_user_info",
): Promise<void> {
  const result = await signInThrough(instance, providerId, fake);
  expect(result.location.searchParams.get("error")).toBe(error);
  expect(result.session).toBeNull();
}

/**
 * With `route` answering `answer`, a sign-in ends with unable_to_get_user_info: `route` is where
 * the profile comes from (the userinfo call, or the token response when the ID token is the profile).
 */
export async function expectProfileFailure(
  provider: AnyProvider,
  fake: FakeProvider,
  route: string,
  answer: ProviderAnswer,
): Promise<void> {
  fake.on(route, answer);
  await expectSignInError(await providerInstance(provider), provider.id, fake);
}

/**
 * Refreshes `refreshToken` and expects the answer's access token and a refresh_token grant
 * (RFC 6749 §6) at `tokenPath` with the client authentication `auth`. Returns both for more checks.
 */
export async function expectRefresh(
  provider: AnyProvider,
  fake: FakeProvider,
  {
    auth,
    tokenPath = "/token",
    refreshToken = "refresh-token-1",
    accessToken = "access-token-1",
  }: { auth: ClientAuth; tokenPath?: string; refreshToken?: string; accessToken?: string },
): Promise<{ tokens: OAuth2Tokens; request: ProviderRequest }> {
  const tokens = await provider.refreshAccessToken!(refreshToken);
  expect(tokens.accessToken).toBe(accessToken);
  const request = fake.last(tokenPath)!;
  expect(request.form.get("grant_type")).toBe("refresh_token");
  expect(request.form.get("refresh_token")).toBe(refreshToken);
  expectTokenRequest(request, { auth });
  return { tokens, request };
}

/** One provider's standard redirect sign-in, as `expectRedirectSignIn` checks it. */
export interface RedirectSignIn {
  provider: AnyProvider;
  /** The `loginHint` the app passes (whether it reaches the provider is in `authorize`). */
  loginHint: string;
  /** The authorization request's parameters, `null` where one must be absent. */
  authorize: Record<string, string | null>;
  /** The token request's client authentication and PKCE verifier. */
  token: { auth?: ClientAuth; pkce?: boolean };
  /** The profile call (`METHOD /path`) and its answer; it must carry the access token. */
  profile: { route: string; answer: ProviderAnswer };
  accountId: string;
  user: Record<string, unknown>;
}

/**
 * A whole redirect sign-in on SQLite with the profile from `profile.route`: checks the
 * authorization and token requests, the Bearer profile call, the session user and the one
 * account. Returns the result for provider-specific checks.
 */
export async function expectRedirectSignIn(fake: FakeProvider, sign: RedirectSignIn): Promise<FlowResult> {
  fake.on(sign.profile.route, sign.profile.answer);
  const instance = await providerInstance(sign.provider, { sqlite: true });
  const result = await signInThrough(instance, sign.provider.id, fake, { loginHint: sign.loginHint });
  expectParams(result.authorize, sign.authorize);
  expectTokenRequest(fake.last("/token"), sign.token);
  const profilePath = sign.profile.route.replace(/^[A-Z]+ /, "");
  expect(fake.last(profilePath)?.headers.authorization).toBe("Bearer access-token-1");
  expectSignedIn(result, { providerId: sign.provider.id, accountId: sign.accountId }, sign.user);
  return result;
}
