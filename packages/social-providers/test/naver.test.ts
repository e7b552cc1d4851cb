import { describe, expect, it } from "vitest";
import { naver } from "../src/providers/naver.ts";
import { useFakeProvider } from "./support/fake-provider.ts";
import { expectProfileFailure, expectRedirectSignIn, expectRefresh } from "./support/flow-expectations.ts";
import { at, CLIENT } from "./support/flow.ts";

const ENDPOINTS = { authorization: "/authorize", token: "/token", userInfo: "/v1/nid/me" };
const RESPONSE = {
  id: "naver-id-1",
  nickname: "nick",
  name: "홍길동",
  email: "hong@naver.com",
  profile_image: "https://n/p.png",
};

describe("naver", () => {
  const fake = useFakeProvider();

  const provider = (extra: Partial<Parameters<typeof naver>[0]> = {}) =>
    naver({ ...CLIENT, endpoints: at(fake, ENDPOINTS), ...extra });

  it("signs in without PKCE, the secret in the form (on SQLite)", async () => {
    await expectRedirectSignIn(fake, {
      provider: provider({ prompt: "consent" }),
      loginHint: "hong@naver.com",
      authorize: {
        scope: "profile email",
        code_challenge: null,
        login_hint: null,
        prompt: null,
      },
      token: { auth: "post", pkce: false },
      profile: {
        route: "GET /v1/nid/me",
        answer: { json: { resultcode: "00", message: "success", response: RESPONSE } },
      },
      accountId: "naver-id-1",
      user: {
        name: "홍길동",
        email: "hong@naver.com",
        emailVerified: false,
        image: "https://n/p.png",
      },
    });
    const token = fake.last("/token")!;
    expect(token.form.get("client_id")).toBe(CLIENT.clientId);
  });

  it("falls back to the nickname, then an empty name", async () => {
    fake.on("GET /v1/nid/me", {
      json: { resultcode: "00", message: "success", response: { id: "1", nickname: "nick" } },
    });
    expect((await provider().getUserInfo({ accessToken: "t" }))?.user.name).toBe("nick");
    fake.on("GET /v1/nid/me", { json: { resultcode: "00", message: "success", response: { id: "2" } } });
    expect((await provider().getUserInfo({ accessToken: "t" }))?.user.name).toBe("");
  });

  it("a 200 answer with an error result code fails with unable_to_get_user_info", async () => {
    await expectProfileFailure(provider(), fake, "GET /v1/nid/me", {
      json: { resultcode: "024", message: "Authentication failed" },
    });
    fake.on("GET /v1/nid/me", { status: 500, text: "oops" });
    expect(await provider().getUserInfo({ accessToken: "t" })).toBeNull();
  });

  it("refreshes with the secret in the form", () => expectRefresh(provider(), fake, { auth: "post" }));
});
