import { createHmac } from "node:crypto";
import { client, type TestAuth, type TestClient } from "@latchkey/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { oauthProvider } from "../src/index.ts";
import { adminClient, api, baseOptions, formPost, pkcePair, providerInstance } from "./instance.ts";

// OIDC Core §8.1 pairwise subjects: sector = host of the first redirect URI, as the reference.
const SECRET = "pairwise-secret-0123456789-abcdefghij";
const expectedSub = (host: string, userId: string) => createHmac("sha256", SECRET).update(`${host}.${userId}`).digest("base64");

let t: TestAuth;
let browser: TestClient;
let userId: string;
beforeAll(async () => {
  t = await providerInstance({ pairwiseSecret: SECRET });
  browser = client(t.auth);
  const res = await browser.post("/sign-up/email", { email: "pw@example.com", password: "correct horse battery", name: "P W" });
  userId = (res.json as { user: { id: string } }).user.id;
});
afterAll(() => t.close());

const decode = (jwt: string) => JSON.parse(Buffer.from(jwt.split(".")[1]!, "base64url").toString()) as Record<string, unknown>;

/** ID token, userinfo and introspection subjects one client sees. */
async function subjectsOf(redirect: string, extra: Record<string, unknown> = {}) {
  const c = await adminClient(t, { redirect_uris: [redirect], ...extra });
  const basic = { id: c.client_id, secret: c.client_secret! };
  const { verifier, challenge } = await pkcePair();
  const query = new URLSearchParams({
    response_type: "code", client_id: c.client_id, redirect_uri: redirect, scope: "openid profile", state: "s", code_challenge: challenge, code_challenge_method: "S256",
  });
  const location = (await browser.get(`/oauth2/authorize?${query}`, { redirect: "manual" })).headers.get("location")!;
  const code = new URL(location).searchParams.get("code")!;
  const tokens = (await formPost(browser, "/oauth2/token", { grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: redirect }, basic)).json as { id_token: string; access_token: string };
  const info = (await browser.get("/oauth2/userinfo", { headers: { authorization: `Bearer ${tokens.access_token}` } })).json as { sub: string };
  const introspection = (await formPost(browser, "/oauth2/introspect", { token: tokens.access_token }, basic)).json as { sub: string };
  return { idToken: decode(tokens.id_token).sub, userinfo: info.sub, introspection: introspection.sub };
}

describe("pairwise subjects", () => {
  it("a pairwise client sees HMAC(sector.userId) in the ID token, userinfo and introspection", async () => {
    const subs = await subjectsOf("https://rp-one.example/cb", { subject_type: "pairwise" });
    const sub = expectedSub("rp-one.example", userId);
    expect(subs).toEqual({ idToken: sub, userinfo: sub, introspection: sub });
    expect(sub).not.toBe(userId);
  });

  it("one sector shares the subject; another sector gets an unlinkable one; a public client sees the user id", async () => {
    const a = await subjectsOf("https://rp-two.example/a", { subject_type: "pairwise" });
    const b = await subjectsOf("https://rp-two.example/b", { subject_type: "pairwise" });
    const other = await subjectsOf("https://rp-three.example:8443/cb", { subject_type: "pairwise" });
    const plain = await subjectsOf("https://rp-two.example/c");
    expect(a.idToken).toBe(b.idToken);
    expect(other.idToken).toBe(expectedSub("rp-three.example:8443", userId));
    expect(other.idToken).not.toBe(a.idToken);
    expect(plain).toEqual({ idToken: userId, userinfo: userId, introspection: userId });
  });

  it("discovery lists pairwise; registration keeps a pairwise client's redirect URIs on one host", async () => {
    const doc = await api(t).getOpenIdConfig({});
    expect((doc as { subject_types_supported: string[] }).subject_types_supported).toEqual(["public", "pairwise"]);
    const res = await browser.post("/oauth2/register", { redirect_uris: ["https://a.example/cb", "https://b.example/cb"], subject_type: "pairwise" });
    expect([res.status, (res.json as { error: string }).error]).toEqual([400, "invalid_client_metadata"]);
    const ok = await browser.post("/oauth2/register", { redirect_uris: ["https://a.example/cb", "https://a.example/cb2"], subject_type: "pairwise" });
    expect([ok.status, (ok.json as { subject_type: string }).subject_type]).toEqual([201, "pairwise"]);
  });

  it("without pairwiseSecret pairwise is refused; a short secret is a TypeError", async () => {
    const plain = await providerInstance();
    try {
      const c = client(plain.auth);
      await c.post("/sign-up/email", { email: "x@example.com", password: "correct horse battery", name: "X" });
      const res = await c.post("/oauth2/register", { redirect_uris: ["https://a.example/cb"], subject_type: "pairwise" });
      expect([res.status, res.json]).toEqual([400, { error: "invalid_client_metadata", error_description: "pairwise subject_type requires server pairwiseSecret configuration" }]);
    } finally {
      await plain.close();
    }
    expect(() => oauthProvider({ ...baseOptions, pairwiseSecret: "short" })).toThrow(TypeError);
  });
});
