import { describe, expect, it } from "vitest";
import { reddit } from "../src/providers/reddit.ts";
import { useFakeProvider } from "./support/fake-provider.ts";
import { expectProfileFailure, expectRedirectSignIn, expectRefresh } from "./support/flow-expectations.ts";
import { at, CLIENT, providerInstance, signInThrough } from "./support/flow.ts";

const ENDPOINTS = { authorization: "/authorize", token: "/token", userInfo: "/api/v1/me" };
const PROFILE = {
  id: "abc123",
  name: "spez",
  icon_img: "https://styles.redditmedia.com/a.png?width=256&s=xyz",
  has_verified_email: true,
  oauth_client_id: CLIENT.clientId,
  verified: true,
};

describe("reddit", () => {
  const fake = useFakeProvider();

  const provider = (extra: Partial<Parameters<typeof reddit>[0]> = {}) =>
    reddit({ ...CLIENT, endpoints: at(fake, ENDPOINTS), ...extra });

  it("signs in with duration, Basic client auth, a User-Agent and a placeholder email (on SQLite)", async () => {
    await expectRedirectSignIn(fake, {
      provider: provider({ duration: "permanent", prompt: "consent" }),
      loginHint: "spez",
      authorize: {
        scope: "identity",
        duration: "permanent",
        code_challenge: null,
        login_hint: null,
        prompt: null,
      },
      token: { auth: "basic" },
      profile: { route: "GET /api/v1/me", answer: { json: PROFILE } },
      accountId: "abc123",
      user: {
        name: "spez",
        email: "abc123@reddit.placeholder.invalid",
        emailVerified: false,
        image: "https://styles.redditmedia.com/a.png",
      },
    });
    const token = fake.last("/token")!;
    expect(token.headers["user-agent"]).toBe("latchkey");
    const me = fake.last("/api/v1/me")!;
    expect(me.headers["user-agent"]).toBe("latchkey");
  });

  it("no duration without the option; a mapped email replaces the placeholder", async () => {
    fake.on("GET /api/v1/me", { json: { ...PROFILE, icon_img: null } });
    const mapped = provider({ mapProfileToUser: () => ({ email: "spez@example.com", emailVerified: true }) });
    const t = await providerInstance(mapped);
    const result = await signInThrough(t, "reddit", fake);
    expect(result.authorize.has("duration")).toBe(false);
    expect(result.session?.user).toMatchObject({
      email: "spez@example.com",
      emailVerified: true,
      image: null,
    });
  });

  it("ends with unable_to_get_user_info when the profile call fails", () =>
    expectProfileFailure(provider(), fake, "GET /api/v1/me", { status: 429, text: "Too Many Requests" }));

  it("refreshes with Basic client auth", () => expectRefresh(provider(), fake, { auth: "basic" }));
});
