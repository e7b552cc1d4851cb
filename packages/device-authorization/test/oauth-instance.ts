import { jwt } from "@latchkey/jwt";
import { oauthProvider, type OAuthProviderPlugin } from "@latchkey/oauth-provider";
import { client, testAuth, type DatabaseKind, type TestAuth } from "@latchkey/test-support";
import type { Auth, LatchkeyOptions } from "@latchkey/core";
import type { DeviceAuthorizationOptions } from "../src/index.ts";
import { oauthDeviceAuthorization } from "../src/oauth.ts";

export const DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";

/** Email sign-up, `jwt()`, `oauthProvider()` and `oauthDeviceAuthorization(options)` on a fresh database (rate limit off). */
export const oauthDeviceInstance = (db: DatabaseKind = "sqlite", options: DeviceAuthorizationOptions = { interval: "1s" }, extra: object = {}): Promise<TestAuth> =>
  testAuth(
    {
      emailAndPassword: { enabled: true },
      rateLimit: { enabled: false },
      plugins: [jwt(), oauthProvider({ loginPage: "/login", consentPage: "/consent", scopes: ["openid", "profile", "email", "offline_access", "tv:watch"] }), oauthDeviceAuthorization(options)],
      ...extra,
    },
    { db },
  );

type ProviderAPI = Auth<LatchkeyOptions & { plugins: [OAuthProviderPlugin] }>["api"];

/** A client created by the operator: public (`none`) or confidential (`client_secret_basic`/`_post`). */
export async function deviceClient(
  t: Pick<TestAuth, "auth">,
  body: Record<string, unknown> = {},
): Promise<{ client_id: string; client_secret?: string }> {
  const api = t.auth.api as unknown as ProviderAPI;
  return (await api.adminCreateOAuthClient({
    body: { client_name: "Living-room TV", grant_types: [DEVICE_GRANT, "refresh_token"], token_endpoint_auth_method: "none", ...body },
  })) as unknown as { client_id: string; client_secret?: string };
}

/** A form POST to `path` with optional Basic credentials. */
export function form(t: TestAuth, path: string, fields: Record<string, string>, basic?: { id: string; secret: string }) {
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded" };
  if (basic) headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(basic.id)}:${encodeURIComponent(basic.secret)}`).toString("base64")}`;
  return client(t.auth).request<Record<string, unknown>>(path, { method: "POST", headers, body: new URLSearchParams(fields).toString() });
}
