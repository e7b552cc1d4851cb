import { createAuth, memoryAdapter, type LatchkeyOptions } from "@latchkey/core";
import { CLIENT_ID, type TestIdP } from "@latchkey/test-support";
import { oneTap, type OneTapOptions } from "../src/index.ts";

export const SECRET = "one-tap-test-secret-that-is-long-enough-0123456789";
export const BASE = "http://localhost:3000";

/**
 * A core instance with `oneTap()` verifying tokens against the test IdP's key set (never
 * Google's). `socialProviders.google.clientId` is the IdP's client id unless the test
 * replaces `socialProviders`; the IdP's issuer is accepted unless `oneTapOptions.issuer` says
 * otherwise.
 */
export function oneTapInstance(
  idp: TestIdP,
  options: Partial<LatchkeyOptions> = {},
  oneTapOptions: OneTapOptions = {},
) {
  const auth = createAuth({
    database: memoryAdapter(),
    secret: SECRET,
    baseURL: BASE,
    emailAndPassword: { enabled: true },
    socialProviders: { google: { clientId: CLIENT_ID, clientSecret: "unused" } },
    logger: { disabled: true },
    ...options,
    plugins: [
      oneTap({ jwksURL: `${idp.issuer}/jwks`, issuer: idp.issuer, ...oneTapOptions }),
      ...(options.plugins ?? []),
    ],
  });
  const request = (path: string, init: RequestInit = {}): Promise<Response> =>
    auth.handler(new Request(`${BASE}/api/auth${path}`, init));
  const post = (path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> =>
    request(path, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });
  const oneTapWith = (idToken: string, extra: Record<string, unknown> = {}): Promise<Response> =>
    post("/one-tap/callback", { idToken, ...extra });
  return { auth, request, post, oneTapWith, db: auth.$context.adapter };
}

/** The `name=value` pair of the session cookie a response sets, for a `Cookie` header. */
export function sessionCookie(response: Response): string {
  const line = response.headers.getSetCookie().find((c) => c.startsWith("better-auth.session_token="));
  if (!line) throw new Error("no session cookie in the response");
  return line.split(";")[0]!;
}
