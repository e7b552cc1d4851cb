import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { twitter } from "../src/providers/twitter.ts";
import { BASIC_AUTH } from "./support/basic-auth.ts";
import { startFakeProvider, type FakeProvider, type ProviderRequest } from "./support/fake-provider.ts";
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
  let fake: FakeProvider;
  beforeAll(async () => {
    fake = await startFakeProvider();
  });
  afterAll(() => fake.close());

  const provider = (extra: Partial<Parameters<typeof twitter>[0]> = {}) =>
    twitter({ ...CLIENT, endpoints: at(fake, ENDPOINTS), ...extra });

  it("signs in with PKCE, Basic client auth and the confirmed email (on SQLite)", async () => {
    fake.on("GET /2/users/me", usersMe({ json: { data: { ...USER, confirmed_email: "dev@example.com" } } }));
    const t = await providerInstance(provider({ prompt: "consent" }), { sqlite: true });
    try {
      const result = await signInThrough(t, "twitter", fake, { loginHint: "dev@example.com" });
      expect(result.location.href).toBe("http://localhost:3000/dashboard");
      expect(result.authorize.get("scope")).toBe("users.read tweet.read offline.access users.email");
      expect(result.authorize.get("code_challenge_method")).toBe("S256");
      expect(result.authorize.get("client_id")).toBe(CLIENT.clientId);
      // The reference forwards neither login_hint nor the prompt option for X.
      expect(result.authorize.has("login_hint")).toBe(false);
      expect(result.authorize.has("prompt")).toBe(false);

      const token = fake.last("/token")!;
      expect(token.headers.authorization).toBe(BASIC_AUTH);
      expect(token.form.has("client_secret")).toBe(false);
      expect(token.form.get("grant_type")).toBe("authorization_code");
      expect(token.form.get("code_verifier")).toMatch(/^[\w-]{43,128}$/);

      const lookups = fake.requests.filter((r) => r.path === "/2/users/me");
      expect(lookups.map((r) => r.query.get("user.fields"))).toEqual([
        "profile_image_url",
        "confirmed_email",
      ]);
      expect(lookups.every((r) => r.headers.authorization === "Bearer access-token-1")).toBe(true);
      expect(result.session?.user).toMatchObject({
        name: "X Dev",
        email: "dev@example.com",
        emailVerified: true,
        image: "https://pbs/x.jpg",
      });
      expect(result.accounts).toEqual([
        expect.objectContaining({ providerId: "twitter", accountId: "2244994945" }),
      ]);
    } finally {
      t.cleanup();
    }
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

  it("ends with unable_to_get_user_info when the profile call fails", async () => {
    fake.on("GET /2/users/me", { status: 401, json: { title: "Unauthorized" } });
    const t = await providerInstance(provider());
    const result = await signInThrough(t, "twitter", fake);
    expect(result.location.searchParams.get("error")).toBe("unable_to_get_user_info");
    expect(result.session).toBeNull();
  });

  it("refreshes with Basic client auth", async () => {
    fake.tokens = { access_token: "access-token-2", refresh_token: "refresh-token-2" };
    try {
      const tokens = await provider().refreshAccessToken!("refresh-token-1");
      expect(tokens).toMatchObject({ accessToken: "access-token-2", refreshToken: "refresh-token-2" });
      const token = fake.last("/token")!;
      expect(token.headers.authorization).toBe(BASIC_AUTH);
      expect(token.form.get("grant_type")).toBe("refresh_token");
      expect(token.form.get("refresh_token")).toBe("refresh-token-1");
      expect(token.form.has("client_secret")).toBe(false);
    } finally {
      fake.tokens = {};
    }
  });
});
