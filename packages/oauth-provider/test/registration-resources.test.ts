import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, rowCounts, type TestAuth } from "@latchkey/test-support";
import { api, providerInstance, REDIRECT, signedIn } from "./instance.ts";

const API = "https://api.example.com";
const EXTRA = "https://extra.example.com";
const OFF = "https://off.example.com";

describe("registration resources (clientRegistrationDefaultResources / AllowedResources)", () => {
  let t: TestAuth;
  beforeAll(async () => {
    t = await providerInstance({
      allowUnauthenticatedClientRegistration: true,
      resources: [API, EXTRA, { identifier: OFF, disabled: true }, "https://other.example.com"],
      clientRegistrationDefaultResources: [API],
      clientRegistrationAllowedResources: [EXTRA, OFF],
    });
  });
  afterAll(() => t.close());

  const links = async (clientId: string) =>
    (await t.auth.$context.adapter.findMany<{ resourceId: string }>({ model: "oauthClientResource", where: [{ field: "clientId", value: clientId }] }))
      .map((link) => link.resourceId)
      .sort();

  it("a registration is linked to the default resources, plus the allowed ones it asks for; the answer lists them", async () => {
    const plain = await client(t.auth).post("/oauth2/register", { redirect_uris: [REDIRECT] });
    expect(plain.status).toBe(201);
    const plainBody = plain.json as { client_id: string; resources: string[] };
    expect(plainBody.resources).toEqual([API]);
    expect(await links(plainBody.client_id)).toEqual([API]);
    const asked = await client(t.auth).post("/oauth2/register", { redirect_uris: [REDIRECT], resources: [EXTRA] });
    expect(asked.status).toBe(201);
    const askedBody = asked.json as { client_id: string; resources: string[] };
    expect(askedBody.resources).toEqual([API, EXTRA]);
    expect(await links(askedBody.client_id)).toEqual([API, EXTRA].sort());
  });

  it("a resource outside the allowed list, or a disabled one, is 400 invalid_target and nothing is written", async () => {
    const before = await rowCounts(t.auth);
    const outside = await client(t.auth).post("/oauth2/register", { redirect_uris: [REDIRECT], resources: ["https://other.example.com"] });
    expect([outside.status, outside.json]).toEqual([400, { error: "invalid_target", error_description: "requested resource https://other.example.com is not allowed for client registration" }]);
    expect(outside.headers.get("cache-control")).toBe("no-store");
    const disabled = await client(t.auth).post("/oauth2/register", { redirect_uris: [REDIRECT], resources: [OFF] });
    expect([disabled.status, disabled.json]).toEqual([400, { error: "invalid_target", error_description: `requested resource ${OFF} is disabled` }]);
    const mistyped = await client(t.auth).post("/oauth2/register", { redirect_uris: [REDIRECT], resources: "https://api.example.com" });
    expect(mistyped.status).toBe(400);
    expect(await rowCounts(t.auth)).toEqual(before);
  });

  it("a session's create-client gets the default resources too (and may not ask for more)", async () => {
    const browser = await signedIn(t);
    const created = await browser.post("/oauth2/create-client", { redirect_uris: [REDIRECT] });
    expect(created.status).toBe(201);
    expect(await links((created.json as { client_id: string }).client_id)).toEqual([API]);
    const asked = await browser.post("/oauth2/create-client", { redirect_uris: [REDIRECT], resources: [EXTRA] });
    expect([asked.status, (asked.json as { error: string }).error]).toEqual([400, "invalid_target"]);
    // The admin route too.
    const admin = (await api(t).adminCreateOAuthClient({ body: { redirect_uris: [REDIRECT] } })) as unknown as { client_id: string; resources?: string[] };
    expect(admin.resources).toEqual([API]);
  });
});
