import { afterEach, describe, expect, it, vi } from "vitest";
import type { OAuthProvider } from "@latchkey/core";
import { apple } from "../src/providers/apple.ts";
import { cognito } from "../src/providers/cognito.ts";
import { facebook } from "../src/providers/facebook.ts";
import { google } from "../src/providers/google.ts";
import { kakao } from "../src/providers/kakao.ts";
import { line } from "../src/providers/line.ts";
import { linkedin } from "../src/providers/linkedin.ts";
import { microsoft } from "../src/providers/microsoft.ts";
import { paypal } from "../src/providers/paypal.ts";
import { CLIENT } from "./support/flow.ts";

interface Contract {
  provider: OAuthProvider<never> | OAuthProvider;
  authorization: string;
  token: string;
  scope: string | null;
  pkce: boolean;
  loginHint: boolean;
  prompt: boolean;
  idTokenSignIn: boolean;
}

const POOL = {
  domain: "app.auth.us-east-1.amazoncognito.com",
  region: "us-east-1",
  userPoolId: "us-east-1_X",
};

/** Facts read from the reference's dist/social-providers/<id>.mjs (v1.7.6). */
const CONTRACTS: Record<string, Contract> = {
  google: {
    provider: google({ ...CLIENT, prompt: "consent" }),
    authorization: "https://accounts.google.com/o/oauth2/v2/auth",
    token: "https://oauth2.googleapis.com/token",
    scope: "email profile openid",
    pkce: true,
    loginHint: true,
    prompt: true,
    idTokenSignIn: true,
  },
  apple: {
    provider: apple({ ...CLIENT, prompt: "consent" }),
    authorization: "https://appleid.apple.com/auth/authorize",
    token: "https://appleid.apple.com/auth/token",
    scope: "email name",
    pkce: true,
    loginHint: false,
    prompt: false,
    idTokenSignIn: true,
  },
  facebook: {
    provider: facebook({ ...CLIENT, prompt: "consent" }),
    authorization: "https://www.facebook.com/v24.0/dialog/oauth",
    token: "https://graph.facebook.com/v24.0/oauth/access_token",
    scope: "email public_profile",
    pkce: false,
    loginHint: true,
    prompt: false,
    idTokenSignIn: true,
  },
  paypal: {
    provider: paypal({ ...CLIENT, prompt: "consent" }),
    authorization: "https://www.sandbox.paypal.com/signin/authorize",
    token: "https://api-m.sandbox.paypal.com/v1/oauth2/token",
    scope: null,
    pkce: true,
    loginHint: false,
    prompt: true,
    idTokenSignIn: false,
  },
  cognito: {
    provider: cognito({ ...CLIENT, ...POOL, prompt: "consent" }),
    authorization: "https://app.auth.us-east-1.amazoncognito.com/oauth2/authorize",
    token: "https://app.auth.us-east-1.amazoncognito.com/oauth2/token",
    scope: "openid profile email",
    pkce: true,
    loginHint: false,
    prompt: true,
    idTokenSignIn: true,
  },
  linkedin: {
    provider: linkedin({ ...CLIENT, prompt: "consent" }),
    authorization: "https://www.linkedin.com/oauth/v2/authorization",
    token: "https://www.linkedin.com/oauth/v2/accessToken",
    scope: "profile email openid",
    pkce: false,
    loginHint: true,
    prompt: false,
    idTokenSignIn: false,
  },
  line: {
    provider: line({ ...CLIENT, prompt: "consent" }),
    authorization: "https://access.line.me/oauth2/v2.1/authorize",
    token: "https://api.line.me/oauth2/v2.1/token",
    scope: "openid profile email",
    pkce: true,
    loginHint: true,
    prompt: false,
    idTokenSignIn: true,
  },
  kakao: {
    provider: kakao({ ...CLIENT, prompt: "consent" }),
    authorization: "https://kauth.kakao.com/oauth/authorize",
    token: "https://kauth.kakao.com/oauth/token",
    scope: "account_email profile_image profile_nickname",
    pkce: false,
    loginHint: false,
    prompt: false,
    idTokenSignIn: false,
  },
  microsoft: {
    provider: microsoft({ ...CLIENT, prompt: "consent" }),
    authorization: "https://login.microsoftonline.com/common/oauth2/v2.0/authorize",
    token: "https://login.microsoftonline.com/common/oauth2/v2.0/token",
    scope: "openid profile email User.Read offline_access",
    pkce: true,
    loginHint: true,
    prompt: true,
    idTokenSignIn: true,
  },
};

describe("reference contract (default endpoints, scopes, PKCE, login_hint, prompt)", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it.each(Object.entries(CONTRACTS))("%s", async (id, contract) => {
    const { provider } = contract;
    expect(provider.id).toBe(id);
    const url = await provider.createAuthorizationURL({
      state: "state-1",
      codeVerifier: "v".repeat(43),
      redirectURI: `http://localhost:3000/api/auth/callback/${id}`,
      loginHint: "user@example.com",
    });
    const q = url.searchParams;
    expect(url.origin + url.pathname).toBe(contract.authorization);
    expect(q.get("scope")).toBe(contract.scope);
    expect(q.has("code_challenge")).toBe(contract.pkce);
    expect(q.has("login_hint")).toBe(contract.loginHint);
    expect(q.has("prompt")).toBe(contract.prompt);
    expect(q.get("client_id")).toBe(CLIENT.clientId);
    expect(!!provider.idToken).toBe(contract.idTokenSignIn);

    // The token request goes to the reference's endpoint (the network itself is replaced).
    const requests: { url: string; body: string }[] = [];
    vi.stubGlobal("fetch", (input: RequestInfo | URL, init?: RequestInit) => {
      requests.push({
        url: String(input instanceof Request ? input.url : input),
        body: String(init?.body ?? ""),
      });
      return Promise.resolve(
        new Response(JSON.stringify({ access_token: "a", token_type: "Bearer" }), {
          headers: { "content-type": "application/json" },
        }),
      );
    });
    await provider.validateAuthorizationCode({
      code: "code-1",
      codeVerifier: "v".repeat(43),
      redirectURI: `http://localhost:3000/api/auth/callback/${id}`,
    });
    expect(requests[0]?.url).toBe(contract.token);
    expect(new URLSearchParams(requests[0]?.body).has("code_verifier")).toBe(contract.pkce);
  });
});
