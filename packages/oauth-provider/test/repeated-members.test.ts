import type { TestAuth, TestClient } from "@latchkey/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminClient, authorizeCode, authorizeQuery, pkcePair, providerInstance, REDIRECT, signedIn } from "./instance.ts";

// RFC 6749 §3.1: "Request and response parameters MUST NOT be included more than once." A form
// that repeats a member is refused with invalid_request (DIVERGENCES.md row 129: the reference
// keeps the last value), and nothing is spent: the code still works for its holder.
let t: TestAuth;
let browser: TestClient;
beforeAll(async () => {
  t = await providerInstance();
  browser = await signedIn(t);
});
afterAll(() => t.close());

const post = (path: string, body: string, headers: Record<string, string> = {}) =>
  browser.request(path, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", ...headers }, body });
const basicOf = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`;

async function codeFor() {
  const c = await adminClient(t);
  const { verifier, challenge } = await pkcePair();
  const code = await authorizeCode(browser, c.client_id, challenge);
  const form = new URLSearchParams({ grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: REDIRECT });
  return { c, form };
}

describe("repeated form members at the token endpoint", () => {
  for (const member of ["client_id", "client_secret", "grant_type", "code", "code_verifier", "redirect_uri"]) {
    it(`${member} twice: 400 invalid_request, no-store, and the code is not spent`, async () => {
      const { c, form } = await codeFor();
      const body = new URLSearchParams(form);
      body.set("client_id", c.client_id);
      body.set("client_secret", c.client_secret!);
      body.append(member, member === "client_secret" ? "other" : body.get(member)!);
      const res = await post("/oauth2/token", body.toString());
      expect([res.status, res.json]).toEqual([400, { error: "invalid_request", error_description: `${member} must not be repeated` }]);
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(await t.auth.$context.adapter.count({ model: "oauthAccessToken", where: [{ field: "clientId", value: c.client_id }] })).toBe(0);
      const good = await post("/oauth2/token", form.toString(), { authorization: basicOf(c.client_id, c.client_secret!) });
      expect(good.status).toBe(200);
    });
  }

  it("the same value twice is refused too (a repeat, whatever its value)", async () => {
    const { c, form } = await codeFor();
    const res = await post("/oauth2/token", `${form}&grant_type=authorization_code`, { authorization: basicOf(c.client_id, c.client_secret!) });
    expect([res.status, (res.json as { error: string }).error]).toEqual([400, "invalid_request"]);
  });

  it("resource may repeat (RFC 8707 §2): each value is checked against the grant", async () => {
    const { c, form } = await codeFor();
    const res = await post("/oauth2/token", `${form}&resource=https%3A%2F%2Fa.example&resource=https%3A%2F%2Fb.example`, {
      authorization: basicOf(c.client_id, c.client_secret!),
    });
    expect([res.status, res.json]).toEqual([400, { error: "invalid_target", error_description: "requested resource not authorized" }]);
  });
});

describe("repeated form members at introspection, revocation and authorize (POST)", () => {
  it("introspect and revoke: token or client_id twice is 400 invalid_request", async () => {
    const c = await adminClient(t);
    const auth = { authorization: basicOf(c.client_id, c.client_secret!) };
    for (const path of ["/oauth2/introspect", "/oauth2/revoke"]) {
      const twice = await post(path, "token=a&token=b", auth);
      expect([twice.status, twice.json]).toEqual([400, { error: "invalid_request", error_description: "token must not be repeated" }]);
      const ids = await post(path, `token=a&client_id=${c.client_id}&client_id=${c.client_id}&client_secret=${c.client_secret}`);
      expect([ids.status, (ids.json as { error: string }).error]).toEqual([400, "invalid_request"]);
    }
  });

  it("authorize by POST refuses a repeated member as GET does", async () => {
    const c = await adminClient(t);
    const { challenge } = await pkcePair();
    const body = `${authorizeQuery(c.client_id, challenge)}&scope=openid`;
    for (const res of [await post("/oauth2/authorize", body), await browser.get(`/oauth2/authorize?${body}`, { redirect: "manual" })]) {
      expect(res.status).toBe(302);
      const location = new URL(res.headers.get("location")!);
      expect([location.origin + location.pathname, location.searchParams.get("error")]).toEqual([REDIRECT, "invalid_request"]);
    }
  });
});

describe("client members as the reference reads them", () => {
  it("an empty client_id beside a filled one is not a repeat", async () => {
    const { c, form } = await codeFor();
    const res = await post("/oauth2/token", `${form}&client_id=&client_id=${c.client_id}`, { authorization: basicOf(c.client_id, c.client_secret!) });
    expect(res.status, res.text).toBe(200);
  });
});
