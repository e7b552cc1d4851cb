import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { linear } from "../src/providers/linear.ts";
import { startFakeProvider, type FakeProvider } from "./support/fake-provider.ts";
import { at, CLIENT, providerInstance, signInThrough } from "./support/flow.ts";

const ENDPOINTS = { authorization: "/authorize", token: "/token", userInfo: "/graphql" };
const VIEWER = {
  id: "2f5d4c6e-1a2b-4c3d-9e8f-001122334455",
  name: "Lin Ear",
  email: "lin@example.com",
  avatarUrl: "https://linear/a.png",
  active: true,
  createdAt: "2024-01-01T00:00:00.000Z",
  updatedAt: "2024-01-02T00:00:00.000Z",
};

describe("linear", () => {
  let fake: FakeProvider;
  beforeAll(async () => {
    fake = await startFakeProvider();
  });
  afterAll(() => fake.close());

  const provider = (extra: Partial<Parameters<typeof linear>[0]> = {}) =>
    linear({ ...CLIENT, endpoints: at(fake, ENDPOINTS), ...extra });

  it("signs in with login_hint and the GraphQL viewer (on SQLite)", async () => {
    fake.on("POST /graphql", { json: { data: { viewer: VIEWER } } });
    const t = await providerInstance(provider({ prompt: "consent" }), { sqlite: true });
    try {
      const result = await signInThrough(t, "linear", fake, { loginHint: "lin@example.com" });
      expect(result.location.href).toBe("http://localhost:3000/dashboard");
      expect(result.authorize.get("scope")).toBe("read");
      expect(result.authorize.get("login_hint")).toBe("lin@example.com");
      expect(result.authorize.has("code_challenge")).toBe(false);
      expect(result.authorize.has("prompt")).toBe(false);
      const token = fake.last("/token")!;
      expect(token.form.get("client_secret")).toBe(CLIENT.clientSecret);
      expect(token.form.has("code_verifier")).toBe(false);
      const graphql = fake.last("/graphql")!;
      expect(graphql.headers.authorization).toBe("Bearer access-token-1");
      expect(graphql.headers["content-type"]).toBe("application/json");
      expect((graphql.json as { query: string }).query).toMatch(/viewer\s*{\s*id name email avatarUrl/);
      expect(result.session?.user).toMatchObject({
        name: "Lin Ear",
        email: "lin@example.com",
        emailVerified: false,
        image: "https://linear/a.png",
      });
      expect(result.accounts).toEqual([
        expect.objectContaining({ providerId: "linear", accountId: VIEWER.id }),
      ]);
    } finally {
      t.cleanup();
    }
  });

  it("a GraphQL error answer or a failed call ends with unable_to_get_user_info", async () => {
    const t = await providerInstance(provider());
    for (const answer of [
      { json: { errors: [{ message: "Authentication required" }], data: null } },
      { status: 400, json: { errors: [] } },
    ]) {
      fake.on("POST /graphql", answer);
      const result = await signInThrough(t, "linear", fake);
      expect(result.location.searchParams.get("error")).toBe("unable_to_get_user_info");
      expect(result.session).toBeNull();
    }
  });

  it("refreshes with the secret in the form", async () => {
    const tokens = await provider().refreshAccessToken!("refresh-token-1");
    expect(tokens.accessToken).toBe("access-token-1");
    const token = fake.last("/token")!;
    expect(token.form.get("grant_type")).toBe("refresh_token");
    expect(token.form.get("client_secret")).toBe(CLIENT.clientSecret);
  });
});
