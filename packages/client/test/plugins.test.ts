import { describe, expect, expectTypeOf, it } from "vitest";
import { createAuthClient, type Call, type ClientPlugin, type ClientResult } from "../src/index.ts";

const ok = (): Promise<Response> => Promise.resolve(new Response('{"ok":true}'));

const magicLinkClient = () =>
  ({
    id: "magic-link",
    methods: (call: Call) => ({
      signIn: {
        magicLink: (body: { email: string }) =>
          call<{ status: boolean }>("/sign-in/magic-link", { method: "POST", body }),
      },
      magicLink: {
        verify: (query: { token: string }) =>
          call<{ token: string }>("/magic-link/verify", { method: "GET", query }),
      },
    }),
  }) satisfies ClientPlugin;

describe("client plugins", () => {
  it("add methods, merging nested groups with the core ones (types follow)", async () => {
    const urls: string[] = [];
    const client = createAuthClient({
      baseURL: "https://auth.example",
      fetch: async (url) => (urls.push(url), ok()),
      plugins: [magicLinkClient()],
    });
    expect(typeof client.signIn.email).toBe("function");
    expect(typeof client.signIn.social).toBe("function");
    await client.signIn.magicLink({ email: "a@x.io" });
    await client.magicLink.verify({ token: "t" });
    expect(urls).toEqual([
      "https://auth.example/api/auth/sign-in/magic-link",
      "https://auth.example/api/auth/magic-link/verify?token=t",
    ]);
    expectTypeOf(client.signIn.magicLink).returns.resolves.toEqualTypeOf<ClientResult<{ status: boolean }>>();
    expectTypeOf(client.signIn.email).parameter(0).toHaveProperty("password");
    expectTypeOf(client.magicLink.verify).parameter(0).toEqualTypeOf<{ token: string }>();
  });

  it("may replace a core method (a Generic OAuth client owning signIn.oauth2)", async () => {
    const client = createAuthClient({
      baseURL: "https://auth.example",
      fetch: ok,
      plugins: [
        { id: "generic-oauth", methods: () => ({ signIn: { oauth2: (providerId: string) => providerId } }) },
      ],
    });
    expect(client.signIn.oauth2("acme")).toBe("acme");
    expectTypeOf(client.signIn.oauth2).toEqualTypeOf<(providerId: string) => string>();
  });

  it("refuses two plugins defining one method, one plugin listed twice, a group turned into a method", () => {
    const a = { id: "a", methods: () => ({ shared: { run: () => 1 } }) };
    const b = { id: "b", methods: () => ({ shared: { run: () => 2 } }) };
    expect(() => createAuthClient({ plugins: [a, b] })).toThrow(
      'Client plugins "a" and "b" both define "shared.run".',
    );
    expect(() => createAuthClient({ plugins: [a, a] })).toThrow('Client plugin "a" is listed twice.');
    expect(() => createAuthClient({ plugins: [{ id: "c", methods: () => ({ signIn: () => 0 }) }] })).toThrow(
      TypeError,
    );
  });

  it("without plugins, the client is exactly the core client", () => {
    const client = createAuthClient({ baseURL: "https://auth.example" });
    expectTypeOf(client.getSession).returns.resolves.toHaveProperty("data");
    // @ts-expect-error no such method without a plugin
    expect(client.signIn.magicLink).toBeUndefined();
  });
});
