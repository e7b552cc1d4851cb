import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestAuth, TestClient } from "@latchkey/test-support";
import { adminClient, formPost, pkcePair, providerInstance, REDIRECT, signedIn } from "./instance.ts";

describe("requestUriResolver: request_uri at /oauth2/authorize", () => {
  let t: TestAuth;
  let browser: TestClient;
  // A pushed-request store standing in for a PAR endpoint: each URI once, for its own client.
  const pushed = new Map<string, { clientId: string; params: Record<string, string> }>();
  beforeAll(async () => {
    t = await providerInstance({
      requestUriResolver: async ({ requestUri, clientId }) => {
        const entry = pushed.get(requestUri);
        pushed.delete(requestUri);
        if (requestUri === "urn:boom") throw new Error("store down");
        return entry && entry.clientId === clientId ? entry.params : null;
      },
    });
    browser = await signedIn(t);
  });
  afterAll(() => t.close());

  const location = async (query: Record<string, string>) => {
    const res = await browser.get(`/oauth2/authorize?${new URLSearchParams(query)}`, { redirect: "manual" });
    expect(res.status).toBe(302);
    return new URL(res.headers.get("location")!, "http://localhost:3000");
  };

  it("the pushed parameters are authorized; the code redeems with the pushed PKCE challenge", async () => {
    const c = await adminClient(t);
    const { verifier, challenge } = await pkcePair();
    pushed.set("urn:ietf:params:oauth:request_uri:one", {
      clientId: c.client_id,
      params: { response_type: "code", client_id: "ignored", redirect_uri: REDIRECT, scope: "openid", state: "pushed-state", code_challenge: challenge, code_challenge_method: "S256" },
    });
    const to = await location({ client_id: c.client_id, request_uri: "urn:ietf:params:oauth:request_uri:one" });
    expect(to.origin + to.pathname).toBe(REDIRECT);
    expect(to.searchParams.get("state")).toBe("pushed-state");
    const code = to.searchParams.get("code")!;
    const res = await formPost(browser, "/oauth2/token", { grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: REDIRECT }, { id: c.client_id, secret: c.client_secret! });
    expect(res.status).toBe(200);
    // Used once: the same URI again is invalid.
    const again = await location({ client_id: c.client_id, request_uri: "urn:ietf:params:oauth:request_uri:one" });
    expect(again.searchParams.get("error")).toBe("invalid_request_uri");
  });

  it("refusals: another client's URI, a resolver that throws, no client_id", async () => {
    const c = await adminClient(t);
    pushed.set("urn:two", { clientId: "someone-else", params: { response_type: "code", redirect_uri: REDIRECT } });
    for (const uri of ["urn:two", "urn:boom"]) {
      const to = await location({ client_id: c.client_id, request_uri: uri });
      expect([to.searchParams.get("error"), to.searchParams.get("error_description")], uri).toEqual(["invalid_request_uri", "request_uri is invalid or expired"]);
    }
    const missing = await location({ request_uri: "urn:x" });
    expect(missing.searchParams.get("error")).toBe("invalid_request");
  });

  it("without the option a request_uri is request_uri_not_supported", async () => {
    const plain = await providerInstance();
    try {
      const res = await (await signedIn(plain)).get(`/oauth2/authorize?${new URLSearchParams({ client_id: "x", request_uri: "urn:y" })}`, { redirect: "manual" });
      expect(new URL(res.headers.get("location")!, "http://localhost:3000").searchParams.get("error")).toBe("request_uri_not_supported");
    } finally {
      await plain.close();
    }
  });
});
