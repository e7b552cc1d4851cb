import { describe, expect, it } from "vitest";
import { twitter } from "../src/providers/twitter.ts";
import { useFakeProvider, type ProviderRequest } from "./support/fake-provider.ts";
import {
  expectParams,
  expectProfileFailure,
  expectRefresh,
  expectSignedIn,
  expectTokenRequest,
} from "./support/flow-expectations.ts";
import { at, CLIENT, providerInstance, signInThrough } from "./support/flow.ts";

const ENDPOINTS = { authorization: "/authorize", token: "/token", userInfo: "/2/users/me" };
const USER = {
  id: "2244994945",
  name: "X Dev",
  username: "xdevelopers",
  profile_image_url: "https://pbs/x.jpg",
};

/** `/2/users/me` as X answers it: the avatar lookup, and the email lookup (or `emailAnswer`). */
const usersMe =
  (emailAnswer: { status?: number; json: unknown }) =>
  ({ query }: ProviderRequest) =>
    query.get("user.fields") === "confirmed_email" ? emailAnswer : { json: { data: USER } };

describe("twitter", () => {
  const fake = useFakeProvider();

  const provider = (extra: Partial<Parameters<typeof twitter>[0]> = {}) =>
    twitter({ ...CLIENT, endpoints: at(fake, ENDPOINTS), ...extra });

  it("signs in with PKCE, Basic client auth and the confirmed email (on SQLite)", async () => {
    fake.on("GET /2/users/me", usersMe({ json: { data: { ...USER, confirmed_email: "dev@example.com" } } }));
    const t = await providerInstance(provider({ prompt: "consent" }), { sqlite: true });
    const result = await signInThrough(t, "twitter", fake, { loginHint: "dev@example.com" });
    expectParams(result.authorize, {
      scope: "users.read tweet.read offline.access users.email",
      code_challenge_method: "S256",
      client_id: CLIENT.clientId,
    });
    // The reference forwards neither login_hint nor the prompt option for X.
    expectParams(result.authorize, { login_hint: null, prompt: null });

    const token = fake.last("/token")!;
    expectTokenRequest(token, { auth: "basic", pkce: true });
    expect(token.form.get("grant_type")).toBe("authorization_code");

    const lookups = fake.requests.filter((r) => r.path === "/2/users/me");
    expect(lookups.map((r) => r.query.get("user.fields"))).toEqual(["profile_image_url", "confirmed_email"]);
    expect(lookups.every((r) => r.headers.authorization === "Bearer access-token-1")).toBe(true);
    expectSignedIn(
      result,
      { providerId: "twitter", accountId: "2244994945" },
      {
        name: "X Dev",
        email: "dev@example.com",
        emailVerified: true,
        image: "https://pbs/x.jpg",
      },
    );
  });

  it("gives a placeholder email, unverified, when X shares no address (spec, Social sign-in 4)", async () => {
    fake.on("GET /2/users/me", usersMe({ status: 403, json: { title: "Forbidden" } }));
    const t = await providerInstance(provider());
    const result = await signInThrough(t, "twitter", fake);
    expect(result.session?.user).toMatchObject({
      email: "2244994945@twitter.placeholder.invalid",
      emailVerified: false,
      name: "X Dev",
    });
    fake.on("GET /2/users/me", usersMe({ json: { data: { id: USER.id } } }));
    const info = await provider().getUserInfo({ accessToken: "t" });
    expect(info?.user.email).toBe("2244994945@twitter.placeholder.invalid");
  });

  it("a user without a display name gets an empty name, not the username (spec, Social sign-in 6)", async () => {
    fake.on("GET /2/users/me", ({ query }) =>
      query.get("user.fields") === "confirmed_email"
        ? { json: { data: {} } }
        : { json: { data: { id: "9", username: "handle" } } },
    );
    const t = await providerInstance(provider());
    const result = await signInThrough(t, "twitter", fake);
    expect(result.session?.user).toMatchObject({ name: "", email: "9@twitter.placeholder.invalid" });
  });

  it("ends with unable_to_get_user_info when the profile call fails", () =>
    expectProfileFailure(provider(), fake, "GET /2/users/me", {
      status: 401,
      json: { title: "Unauthorized" },
    }));

  it("refreshes with Basic client auth", async () => {
    fake.tokens = { access_token: "access-token-2", refresh_token: "refresh-token-2" };
    const { tokens } = await expectRefresh(provider(), fake, {
      auth: "basic",
      accessToken: "access-token-2",
    });
    expect(tokens.refreshToken).toBe("refresh-token-2");
  });
});
