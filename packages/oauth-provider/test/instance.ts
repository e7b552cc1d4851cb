import { client, testAuth, type DatabaseKind, type TestAuth, type TestClient } from "@latchkey/test-support";
import type { Auth, LatchkeyOptions } from "@latchkey/core";
import { jwt } from "@latchkey/jwt";
import { oauthProvider, type OAuthOptions, type OAuthProviderPlugin } from "../src/index.ts";

export const ada = { email: "ada@example.com", password: "correct horse battery", name: "Ada Lovelace" };
export const REDIRECT = "https://client.example.com/callback";

/** The plugin options every test starts from. */
export const baseOptions: OAuthOptions = {
  loginPage: "/login",
  consentPage: "/consent",
  allowDynamicClientRegistration: true,
};

/** Email sign-up, `jwt()` and `oauthProvider(options)` on a fresh database. */
export function providerInstance(
  options: Partial<OAuthOptions> = {},
  db: DatabaseKind = "sqlite",
  extra: Omit<Partial<LatchkeyOptions>, "database"> = {},
): Promise<TestAuth> {
  return testAuth(
    { emailAndPassword: { enabled: true }, ...extra, plugins: [jwt(), oauthProvider({ ...baseOptions, ...options })] },
    { db },
  );
}

type ProviderAPI = Auth<LatchkeyOptions & { plugins: [OAuthProviderPlugin] }>["api"];
/** `auth.api` typed with the provider's endpoints. */
export const api = (t: TestAuth): ProviderAPI => t.auth.api as unknown as ProviderAPI;

/** A browser signed in as Ada (signed up on the instance). */
export async function signedIn(t: TestAuth, who = ada): Promise<TestClient> {
  const c = client(t.auth);
  const res = await c.post("/sign-up/email", who);
  if (res.status !== 200) throw new Error(`sign-up failed: ${res.status} ${res.text}`);
  return c;
}

/** A client made by the operator (server-only admin route); `client_secret` is the plain one. */
export async function adminClient(t: TestAuth, body: Record<string, unknown> = {}): Promise<{ client_id: string; client_secret?: string } & Record<string, unknown>> {
  return (await api(t).adminCreateOAuthClient({
    body: { redirect_uris: [REDIRECT], client_name: "Test client", skip_consent: true, grant_types: ["authorization_code", "refresh_token"], ...body },
  })) as unknown as { client_id: string; client_secret?: string };
}

/** An RFC 7636 verifier and its S256 challenge. */
export async function pkcePair(): Promise<{ verifier: string; challenge: string }> {
  const verifier = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier)));
  return { verifier, challenge: Buffer.from(digest).toString("base64url") };
}

/** The authorize query for `clientId` with PKCE. */
export function authorizeQuery(clientId: string, challenge: string, extra: Record<string, string> = {}): string {
  return new URLSearchParams({
    response_type: "code",
    client_id: clientId,
    redirect_uri: REDIRECT,
    scope: "openid profile email offline_access",
    state: "st-1",
    code_challenge: challenge,
    code_challenge_method: "S256",
    ...extra,
  }).toString();
}

/** Runs `/oauth2/authorize` in the browser `c` and returns the code of the 302 to the client. */
export async function authorizeCode(c: TestClient, clientId: string, challenge: string, extra: Record<string, string> = {}): Promise<string> {
  const res = await c.get(`/oauth2/authorize?${authorizeQuery(clientId, challenge, extra)}`, { redirect: "manual" });
  const location = res.headers.get("location");
  if (res.status !== 302 || !location) throw new Error(`authorize: ${res.status} ${res.text}`);
  const code = new URL(location).searchParams.get("code");
  if (!code) throw new Error(`authorize redirected without a code: ${location}`);
  return code;
}

/** A form POST to a provider route, with optional Basic credentials. */
export function formPost(
  c: TestClient,
  path: string,
  form: Record<string, string>,
  basic?: { id: string; secret: string },
) {
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded" };
  if (basic) headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(basic.id)}:${encodeURIComponent(basic.secret)}`).toString("base64")}`;
  return c.request(path, { method: "POST", headers, body: new URLSearchParams(form).toString() });
}
