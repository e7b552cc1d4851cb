import { describe, expect, it } from "vitest";
import { allProviders, socialProviderFactories } from "../src/index.ts";
import { providerInstance } from "./support/flow.ts";
import { github } from "../src/providers/github.ts";

// The `socialProviders` keys of Better Auth 1.7.6 (reference/core.md §13, CORE/social-providers/index.ts).
const REFERENCE_IDS = [
  "apple",
  "atlassian",
  "cloudflare",
  "cognito",
  "discord",
  "facebook",
  "figma",
  "github",
  "microsoft",
  "google",
  "huggingface",
  "slack",
  "spotify",
  "twitch",
  "twitter",
  "dropbox",
  "kick",
  "linear",
  "linkedin",
  "gitlab",
  "tiktok",
  "reddit",
  "roblox",
  "salesforce",
  "vk",
  "zoom",
  "notion",
  "kakao",
  "naver",
  "line",
  "paybin",
  "paypal",
  "polar",
  "railway",
  "vercel",
  "wechat",
];

describe("allProviders", () => {
  it("holds one factory per reference provider, each named by its provider id", () => {
    expect(allProviders.map((f) => f.id).sort()).toEqual([...REFERENCE_IDS].sort());
  });

  it("every factory builds a provider whose id is its own", () => {
    for (const factory of allProviders) {
      const options = {
        clientId: "id",
        clientSecret: "secret",
        clientKey: "key",
        // Providers whose hosts come from configuration.
        domain: "auth.example.test",
        region: "eu-west-1",
        userPoolId: "eu-west-1_pool",
        tenantId: "common",
      };
      const provider = (factory as unknown as (o: typeof options) => { id: string })(options);
      expect(provider.id).toBe(factory.id);
    }
  });

  it("registering two factories for one id is refused at start-up", () => {
    expect(() => socialProviderFactories([github, github])).toThrow(TypeError);
  });

  it("a reference-style config of every provider builds through the plugin", async () => {
    const config = {
      clientId: "id",
      clientSecret: "secret",
      clientKey: "key",
      domain: "auth.example.test",
      region: "eu-west-1",
      userPoolId: "eu-west-1_pool",
    };
    const t = await providerInstance(github({ clientId: "id", clientSecret: "s" }), {
      plugins: [socialProviderFactories(allProviders)],
      socialProviders: Object.fromEntries(REFERENCE_IDS.map((id) => [id, config])),
    });
    for (const id of REFERENCE_IDS) {
      const res = await t.browser.post("http://localhost:3000/api/auth/sign-in/social", {
        provider: id,
        callbackURL: "/",
      });
      expect([id, res.status]).toEqual([id, 200]);
      const { url } = (await res.json()) as { url: string };
      expect(new URL(url).searchParams.get("state")).toMatch(/^[\w-]{32,}$/);
    }
  });
});
