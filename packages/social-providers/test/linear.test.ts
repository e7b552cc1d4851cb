import { describe, expect, it } from "vitest";
import { linear } from "../src/providers/linear.ts";
import { useFakeProvider } from "./support/fake-provider.ts";
import { expectRedirectSignIn, expectRefresh, expectSignInError } from "./support/flow-expectations.ts";
import { at, CLIENT, providerInstance } from "./support/flow.ts";

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
  const fake = useFakeProvider();

  const provider = (extra: Partial<Parameters<typeof linear>[0]> = {}) =>
    linear({ ...CLIENT, endpoints: at(fake, ENDPOINTS), ...extra });

  it("signs in with login_hint and the GraphQL viewer (on SQLite)", async () => {
    await expectRedirectSignIn(fake, {
      provider: provider({ prompt: "consent" }),
      loginHint: "lin@example.com",
      authorize: {
        scope: "read",
        login_hint: "lin@example.com",
        code_challenge: null,
        prompt: null,
      },
      token: { auth: "post", pkce: false },
      profile: { route: "POST /graphql", answer: { json: { data: { viewer: VIEWER } } } },
      accountId: VIEWER.id,
      user: {
        name: "Lin Ear",
        email: "lin@example.com",
        emailVerified: false,
        image: "https://linear/a.png",
      },
    });
    const graphql = fake.last("/graphql")!;
    expect(graphql.headers["content-type"]).toBe("application/json");
    expect((graphql.json as { query: string }).query).toMatch(/viewer\s*{\s*id name email avatarUrl/);
  });

  it("a GraphQL error answer or a failed call ends with unable_to_get_user_info", async () => {
    const t = await providerInstance(provider());
    for (const answer of [
      { json: { errors: [{ message: "Authentication required" }], data: null } },
      { status: 400, json: { errors: [] } },
    ]) {
      fake.on("POST /graphql", answer);
      await expectSignInError(t, "linear", fake);
    }
  });

  it("refreshes with the secret in the form", () => expectRefresh(provider(), fake, { auth: "post" }));
});
