import { betterAuth } from "better-auth";
import { oAuthProxy as referenceOAuthProxy } from "better-auth/plugins";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAuth, memoryAdapter } from "@latchkey/core";
import { oAuthProxy } from "@latchkey/oauth-proxy";
import { figma, socialProviderFactories, zoom } from "@latchkey/social-providers";
import { BASE_URL, createPair, jsonPost, SECRET, type Pair } from "./support/instances.ts";

/**
 * Divergence rows of DIVERGENCES.md for today's plugins that a side-by-side request shows
 * (the others cite their package's own tests): the OAuth proxy's default error URL under a
 * custom basePath, Zoom's configured scopes, and provider credentials checked at start-up.
 */

describe("oauth-proxy: the completion route's default error URL (DIVERGENCES.md row 45)", () => {
  let pair: Pair;
  const BASE_PATH = "/auth";
  beforeAll(async () => {
    pair = await createPair({
      reference: { basePath: BASE_PATH, plugins: [referenceOAuthProxy()] },
      latchkey: { basePath: BASE_PATH, plugins: [oAuthProxy()] },
    });
  });
  afterAll(() => pair.close());

  it("basePath /auth, no profile: both redirect with missing_profile; the reference to /api/auth/error (not served), Latchkey to /auth/error", async () => {
    const completion = `${BASE_URL}${BASE_PATH}/callback/idp/oauth-proxy?callbackURL=%2Fhome`;
    const [reference, latchkey] = await Promise.all([
      pair.reference(new Request(completion)),
      pair.latchkey(new Request(completion)),
    ]);
    expect(reference.status).toBe(302);
    expect(reference.headers.get("location")).toBe(`${BASE_URL}/api/auth/error?error=missing_profile`);
    expect(latchkey.status).toBe(302);
    expect(latchkey.headers.get("location")).toBe(`${BASE_URL}${BASE_PATH}/error?error=missing_profile`);
    // The reference's target is not one of its routes: its own /error lives under basePath.
    expect((await pair.reference(new Request(`${BASE_URL}/api/auth/error`))).status).toBe(404);
    expect((await pair.reference(new Request(`${BASE_URL}${BASE_PATH}/error`))).status).toBe(200);
  });
});

describe("social providers: zoom scopes (DIVERGENCES.md row 52)", () => {
  let pair: Pair;
  const config = { clientId: "zoom-id", clientSecret: "zoom-secret", scope: ["meeting:read", "user:read"] };
  beforeAll(async () => {
    pair = await createPair({
      reference: { socialProviders: { zoom: config } },
      latchkey: { socialProviders: { zoom: config }, plugins: [socialProviderFactories([zoom])] },
    });
  });
  afterAll(() => pair.close());

  it("configured scopes: the reference sends none, Latchkey sends them; the rest of the authorization URL is the same", async () => {
    const urls = await Promise.all(
      [pair.reference, pair.latchkey].map(async (handler) => {
        const response = await handler(jsonPost("/sign-in/social", { provider: "zoom", callbackURL: "/d" }));
        expect(response.status).toBe(200);
        return new URL(((await response.json()) as { url: string }).url);
      }),
    );
    const [reference, latchkey] = urls as [URL, URL];
    expect(reference.searchParams.get("scope")).toBeNull();
    expect(latchkey.searchParams.get("scope")).toBe("meeting:read user:read");
    const stable = (u: URL) => ({
      endpoint: `${u.origin}${u.pathname}`,
      keys: [...u.searchParams.keys()].filter((k) => k !== "scope").sort(),
      clientId: u.searchParams.get("client_id"),
      redirectURI: u.searchParams.get("redirect_uri"),
    });
    expect(stable(latchkey)).toEqual(stable(reference));
  });
});

describe("social providers: missing credentials (DIVERGENCES.md row 55)", () => {
  const start = (handler: (request: Request) => Promise<Response>) =>
    handler(jsonPost("/sign-in/social", { provider: "figma", callbackURL: "/d" }));

  it("figma without a clientSecret: the reference starts and answers 500 at the first sign-in; Latchkey's factory throws TypeError when called", async () => {
    const reference = betterAuth({
      secret: SECRET,
      baseURL: BASE_URL,
      logger: { disabled: true },
      socialProviders: { figma: { clientId: "figma-id" } as { clientId: string; clientSecret: string } },
    });
    expect((await start((r) => reference.handler(r))).status).toBe(500);
    expect(() => figma({ clientId: "figma-id" } as never)).toThrow(
      new TypeError("Figma needs a clientId and a clientSecret."),
    );
  });

  it("a reference-style config through socialProviderFactories: Latchkey logs the provider's reason and does not offer it (404 PROVIDER_NOT_FOUND), never a 500", async () => {
    const logged: string[] = [];
    const latchkey = createAuth({
      database: memoryAdapter(),
      secret: SECRET,
      baseURL: BASE_URL,
      logger: { log: (level: string, message: string) => void logged.push(`${level} ${message}`) },
      socialProviders: { figma: { clientId: "figma-id" } as never },
      plugins: [socialProviderFactories([figma])],
    });
    const res = await start(latchkey.handler);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: "PROVIDER_NOT_FOUND" });
    expect(logged).toContainEqual(
      'error Social provider "figma" cannot be built from its config: Figma needs a clientId and a clientSecret.',
    );
  });
});
