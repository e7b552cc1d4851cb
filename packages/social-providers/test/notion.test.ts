import { describe, expect, it } from "vitest";
import { notion } from "../src/providers/notion.ts";
import { useFakeProvider } from "./support/fake-provider.ts";
import {
  expectProfileFailure,
  expectRedirectSignIn,
  expectRefresh,
  expectSignInError,
} from "./support/flow-expectations.ts";
import { AUTHORIZATION_REQUEST, at, CLIENT, providerInstance } from "./support/flow.ts";

const ENDPOINTS = { authorization: "/authorize", token: "/token", userInfo: "/v1/users/me" };
const OWNER = {
  object: "user",
  id: "e79a0b74-3aba-4149-9f74-0bb5791a6ee6",
  type: "person",
  name: "Avo Cado",
  avatar_url: "https://notion/a.png",
  person: { email: "avo@example.org" },
};
const BOT = { object: "user", id: "bot-1", type: "bot", bot: { owner: { type: "user", user: OWNER } } };

describe("notion", () => {
  const fake = useFakeProvider();

  const provider = (extra: Partial<Parameters<typeof notion>[0]> = {}) =>
    notion({ ...CLIENT, endpoints: at(fake, ENDPOINTS), ...extra });

  it("signs in with owner=user, login_hint and Basic client auth (on SQLite)", async () => {
    await expectRedirectSignIn(fake, {
      provider: provider({ prompt: "consent" }),
      loginHint: "avo@example.org",
      authorize: {
        owner: "user",
        login_hint: "avo@example.org",
        scope: null,
        code_challenge: null,
        prompt: null,
      },
      token: { auth: "basic" },
      profile: { route: "GET /v1/users/me", answer: { json: BOT } },
      accountId: OWNER.id,
      user: {
        name: "Avo Cado",
        email: "avo@example.org",
        emailVerified: false,
        image: "https://notion/a.png",
      },
    });
    const me = fake.last("/v1/users/me")!;
    expect(me.headers["notion-version"]).toBe("2022-06-28");
  });

  it("owner=user cannot be overridden by a caller", async () => {
    const url = await provider().createAuthorizationURL({
      ...AUTHORIZATION_REQUEST,
      scopes: ["read"],
      additionalParams: { owner: "workspace" },
    });
    expect(url.searchParams.get("owner")).toBe("user");
    expect(url.searchParams.get("scope")).toBe("read");
  });

  it("the profile is the owner's; a bot owned by a workspace fails with unable_to_get_user_info", async () => {
    fake.on("GET /v1/users/me", { json: BOT });
    const info = await provider().getUserInfo({ accessToken: "t" });
    expect(info?.data).toEqual(OWNER);
    await expectProfileFailure(provider(), fake, "GET /v1/users/me", {
      json: { ...BOT, bot: { owner: { type: "workspace", workspace: true } } },
    });
  });

  it("an owner without an email ends with email_not_found; a failed call with unable_to_get_user_info", async () => {
    fake.on("GET /v1/users/me", {
      json: { ...BOT, bot: { owner: { type: "user", user: { ...OWNER, person: {} } } } },
    });
    const t = await providerInstance(provider());
    await expectSignInError(t, "notion", fake, "email_not_found");
    fake.on("GET /v1/users/me", { status: 401, json: { code: "unauthorized" } });
    await expectSignInError(t, "notion", fake);
  });

  it("refreshes with Basic client auth", () => expectRefresh(provider(), fake, { auth: "basic" }));
});
