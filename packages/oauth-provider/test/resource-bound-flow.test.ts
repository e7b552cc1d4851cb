import * as oauth from "oauth4webapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createResourceServer, ResourceServerError } from "../src/resource-server.ts";
import { liveProvider, localServer, type LiveProvider } from "./live-provider.ts";

type Admin = {
  adminCreateOAuthClient(input: { body: unknown }): Promise<{ client_id: string; client_secret?: string }>;
  adminLinkClientResource(input: { params: Record<string, string>; headers: Headers }): Promise<unknown>;
};
const insecure = { [oauth.allowInsecureRequests]: true } as const;
const REPORTS = "https://reports.example/api";
const BILLING = "https://billing.example/api";

/**
 * RFC 8707 end to end over HTTP: oauth4webapi asks the provider (on 127.0.0.1) for a token for a
 * configured resource; the API, protected by the resource-server helper, checks the audience;
 * the API's own client introspects it through its resource link.
 */
describe("a resource-bound flow with oauth4webapi and the resource-server helper", () => {
  let provider: LiveProvider;
  let reportsApi: Awaited<ReturnType<typeof localServer>>;
  let billingApi: Awaited<ReturnType<typeof localServer>>;
  let as: oauth.AuthorizationServer;
  let worker: { client_id: string; client_secret?: string };
  let reportsServer: { client_id: string; client_secret?: string };

  const protect = (audience: string) =>
    localServer(async (request) => {
      try {
        const access = await createResourceServer({ issuer: provider.issuer, audience }).verifyRequest(request, { scopes: ["reports:read"] });
        return Response.json({ client: access.clientId, scopes: access.scopes });
      } catch (error) {
        if (error instanceof ResourceServerError) return error.toResponse();
        throw error;
      }
    });

  beforeAll(async () => {
    provider = await liveProvider({ scopes: ["openid", "reports:read"], resources: [REPORTS, BILLING] });
    const admin = provider.auth.api as unknown as Admin;
    // An administrator's session (the admin routes are server-only and need one).
    const signUp = await fetch(`${provider.issuer}/sign-up/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: provider.origin },
      body: JSON.stringify({ email: "admin@example.com", password: "correct horse battery", name: "Admin" }),
    });
    const headers = new Headers({ cookie: signUp.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ") });
    worker = await admin.adminCreateOAuthClient({ body: { grant_types: ["client_credentials"], client_credentials_scopes: ["reports:read"], redirect_uris: ["https://w.example/cb"] } });
    reportsServer = await admin.adminCreateOAuthClient({ body: { grant_types: ["client_credentials"], client_credentials_scopes: ["reports:read"], redirect_uris: ["https://r.example/cb"] } });
    await admin.adminLinkClientResource({ params: { identifier: REPORTS, client_id: worker.client_id }, headers });
    await admin.adminLinkClientResource({ params: { identifier: REPORTS, client_id: reportsServer.client_id }, headers });
    reportsApi = await protect(REPORTS);
    billingApi = await protect(BILLING);
    as = await oauth.processDiscoveryResponse(new URL(provider.issuer), await oauth.discoveryRequest(new URL(provider.issuer), insecure));
  });
  afterAll(async () => {
    await reportsApi.close();
    await billingApi.close();
    await provider.close();
  });

  const tokenFor = async (resource: string) => {
    const rp: oauth.Client = { client_id: worker.client_id };
    const body = new URLSearchParams({ scope: "reports:read", resource });
    const response = await oauth.clientCredentialsGrantRequest(as, rp, oauth.ClientSecretBasic(worker.client_secret!), body, insecure);
    return oauth.processClientCredentialsResponse(as, rp, response);
  };

  it("the token names the resource; its API accepts it, another resource's API refuses it", async () => {
    const { access_token } = await tokenFor(REPORTS);
    const ok = await fetch(`${reportsApi.origin}/reports`, { headers: { authorization: `Bearer ${access_token}` } });
    expect([ok.status, await ok.json()]).toEqual([200, { client: worker.client_id, scopes: ["reports:read"] }]);
    const other = await fetch(`${billingApi.origin}/reports`, { headers: { authorization: `Bearer ${access_token}` } });
    expect(other.status).toBe(401);
    expect(other.headers.get("www-authenticate")).toMatch(/^Bearer error="invalid_token"/);
  });

  it("a resource the client is not linked to is refused with invalid_target", async () => {
    const error = await tokenFor(BILLING).then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(oauth.ResponseBodyError);
    expect((error as oauth.ResponseBodyError).error).toBe("invalid_target");
  });

  it("the API's own client introspects the token through its resource link", async () => {
    const { access_token } = await tokenFor(REPORTS);
    const introspect = async (who: { client_id: string; client_secret?: string }) => {
      const response = await oauth.introspectionRequest(as, { client_id: who.client_id }, oauth.ClientSecretBasic(who.client_secret!), access_token, insecure);
      return oauth.processIntrospectionResponse(as, { client_id: who.client_id }, response);
    };
    expect(await introspect(reportsServer)).toMatchObject({ active: true, aud: REPORTS, client_id: worker.client_id, scope: "reports:read" });
  });
});
