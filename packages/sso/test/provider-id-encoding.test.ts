import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, startIdP, type TestAuth, type TestIdP } from "@latchkey/test-support";
import { AUTH, registration, signedIn, ssoInstance } from "./instance.ts";

const BASE = "http://localhost:3000";
// The reference accepts any string as a providerId; these characters must be encoded in a path segment.
const PROVIDER_ID = "Acme EU/tenant #1?x=100%";
const CALLBACK = `${AUTH}/sso/callback/${encodeURIComponent(PROVIDER_ID)}`;

let idp: TestIdP;
let t: TestAuth;
beforeAll(async () => {
  // The IdP holds exactly the redirect URI registration answered: it compares strings.
  idp = await startIdP([CALLBACK]);
  idp.accounts.set("erin-sub", { email: "erin@encoded.example", email_verified: true, name: "Erin" });
  t = await ssoInstance("sqlite", idp);
});
afterAll(async () => {
  await t.close();
  await idp.close();
});

describe("a providerId with characters that need percent-encoding", () => {
  it("registration answers the encoded callback URI; the IdP returns there and the callback route finds the provider", async () => {
    const owner = await signedIn(t, "encoded-owner");
    const registered = await owner.post("/sso/register", {
      ...registration(idp, PROVIDER_ID),
      domain: "encoded.example",
    });
    expect(registered.status).toBe(200);
    const answer = registered.json as { providerId: string; redirectURI: string };
    expect(answer.providerId).toBe(PROVIDER_ID);
    expect(answer.redirectURI).toBe(CALLBACK);

    const browser = new Browser(BASE, t.auth.handler);
    idp.login("erin-sub");
    const res = await browser.post(`${AUTH}/sign-in/sso`, {
      callbackURL: "/dashboard",
      email: "erin@encoded.example",
    });
    expect(res.status).toBe(200);
    const authorize = new URL(((await res.json()) as { url: string }).url);
    expect(authorize.searchParams.get("redirect_uri")).toBe(CALLBACK);
    const { location } = await browser.follow(authorize.href);
    expect(location).toBe(`${BASE}/dashboard`);
    const account = await t.auth.$context.adapter.findOne<{ providerId: string; accountId: string }>({
      model: "account",
      where: [{ field: "providerId", value: PROVIDER_ID }],
    });
    expect(account).toMatchObject({ providerId: PROVIDER_ID, accountId: "erin-sub" });
    const session = (await (await browser.send(`${AUTH}/get-session`)).json()) as {
      user: { email: string };
    } | null;
    expect(session?.user.email).toBe("erin@encoded.example");
  });
});
