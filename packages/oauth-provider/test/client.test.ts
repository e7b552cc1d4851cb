import { createAuthClient } from "@latchkey/client";
import { CookieJar, type TestAuth } from "@latchkey/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { currentOAuthQuery, oauthProviderClient } from "../src/client.ts";
import { ada, pkcePair, providerInstance, REDIRECT, authorizeQuery } from "./instance.ts";

let t: TestAuth;
beforeAll(async () => {
  t = await providerInstance();
});
afterAll(() => t.close());

function browserClient(jar = new CookieJar()) {
  return createAuthClient({
    baseURL: "http://localhost:3000",
    fetch: async (url, init) => {
      const headers = new Headers(init?.headers);
      const cookie = jar.header();
      if (cookie) headers.set("cookie", cookie);
      const response = await t.auth.handler(new Request(url, { ...init, headers }));
      jar.absorb(response);
      return response;
    },
    plugins: [oauthProviderClient()],
  });
}

describe("oauthProviderClient", () => {
  it("createClient, then consent with the consent page's query, gives the code redirect", async () => {
    const jar = new CookieJar();
    const authClient = browserClient(jar);
    await authClient.signUp.email(ada);
    const created = await authClient.oauth2.createClient({ redirect_uris: [REDIRECT] });
    expect(created.data?.client_id).toMatch(/^[A-Za-z]{32}$/);
    const { challenge } = await pkcePair();
    const page = await t.auth.handler(
      new Request(`http://localhost:3000/api/auth/oauth2/authorize?${authorizeQuery(created.data!.client_id, challenge)}`, { headers: { cookie: jar.header()! } }),
    );
    const consentPage = new URL(page.headers.get("location")!, "http://localhost:3000");
    expect(consentPage.pathname).toBe("/consent");
    // The page's query with an unsigned parameter added: the client sends only the signed ones.
    const oauthQuery = currentOAuthQuery(`${consentPage.search}&utm_source=x`);
    expect(oauthQuery).not.toContain("utm_source");
    const consent = await authClient.oauth2.consent({ accept: true, oauth_query: oauthQuery });
    expect(new URL(consent.data!.url).searchParams.get("code")).toMatch(/^[A-Za-z0-9]{32}$/);
  });

  it("client and consent management through the client methods", async () => {
    const authClient = browserClient();
    await authClient.signUp.email({ ...ada, email: "mgmt@example.com" });
    const created = (await authClient.oauth2.createClient({ redirect_uris: [REDIRECT], client_name: "M" })).data!;
    expect((await authClient.oauth2.getClient({ query: { client_id: created.client_id } })).data).toMatchObject({ client_name: "M" });
    expect((await authClient.oauth2.getClients()).data?.map((c) => c.client_id)).toEqual([created.client_id]);
    expect((await authClient.oauth2.publicClient({ query: { client_id: created.client_id } })).data).toMatchObject({ client_name: "M" });
    const rotated = (await authClient.oauth2.client.rotateSecret({ client_id: created.client_id })).data!;
    expect(rotated.client_secret).not.toBe(created.client_secret);
    expect((await authClient.oauth2.getConsents()).data).toEqual([]);
    expect((await authClient.oauth2.deleteClient({ client_id: created.client_id })).error).toBeNull();
    expect((await authClient.oauth2.getClient({ query: { client_id: created.client_id } })).error?.status).toBe(404);
  });

  it("register without a session: the provider's 401", async () => {
    const res = await browserClient().oauth2.register({ redirect_uris: [REDIRECT] });
    expect(res.error?.status).toBe(401);
  });
});
