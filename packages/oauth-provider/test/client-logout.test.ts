import { createAuthClient } from "@latchkey/client";
import { CookieJar, type TestAuth } from "@latchkey/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { oauthProviderClient } from "../src/client.ts";
import { ada, adminClient, authorizeQuery, pkcePair, providerInstance, REDIRECT } from "./instance.ts";

// The client methods of the continue and end-session routes.
let t: TestAuth;
let selectFirst = true;
beforeAll(async () => {
  t = await providerInstance({ selectAccount: { page: "/select", shouldRedirect: () => selectFirst } });
});
afterAll(() => t.close());

function browserClient(jar: CookieJar) {
  return createAuthClient({
    baseURL: "http://localhost:3000",
    fetch: async (url, init) => {
      const headers = new Headers(init?.headers);
      // What a browser adds to a script's fetch: the provider answers { redirect, url } to it.
      headers.set("sec-fetch-mode", "cors");
      const cookie = jar.header();
      if (cookie) headers.set("cookie", cookie);
      const response = await t.auth.handler(new Request(url, { ...init, headers }));
      jar.absorb(response);
      return response;
    },
    plugins: [oauthProviderClient()],
  });
}

describe("oauthProviderClient: continue and endSession", () => {
  it("continue from the account-selection page, then endSession with the ID token", async () => {
    const jar = new CookieJar();
    const authClient = browserClient(jar);
    await authClient.signUp.email(ada);
    const c = await adminClient(t, { enable_end_session: true, post_logout_redirect_uris: ["https://client.example.com/bye"] });
    const { verifier, challenge } = await pkcePair();
    const page = await t.auth.handler(new Request(`http://localhost:3000/api/auth/oauth2/authorize?${authorizeQuery(c.client_id, challenge)}`, { headers: { cookie: jar.header()! } }));
    const select = new URL(page.headers.get("location")!, "http://localhost:3000");
    expect(select.pathname).toBe("/select");
    selectFirst = false;
    const continued = await authClient.oauth2.continue({ selected: true, oauth_query: select.search.slice(1) });
    const code = new URL(continued.data!.url).searchParams.get("code")!;
    const tokens = await t.auth.handler(
      new Request("http://localhost:3000/api/auth/oauth2/token", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${Buffer.from(`${c.client_id}:${c.client_secret}`).toString("base64")}` },
        body: new URLSearchParams({ grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: REDIRECT }),
      }),
    );
    const { id_token } = (await tokens.json()) as { id_token: string };
    const ended = await authClient.oauth2.endSession({ id_token_hint: id_token, post_logout_redirect_uri: "https://client.example.com/bye", state: "x" });
    expect(ended.data).toEqual({ redirect: true, url: "https://client.example.com/bye?state=x" });
    expect((await authClient.getSession()).data).toBeNull();
  });
});
