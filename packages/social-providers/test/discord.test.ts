import { describe, expect, it } from "vitest";
import { discord } from "../src/index.ts";
import { useFakeProvider } from "./support/fake-provider.ts";
import { expectParams } from "./support/flow-expectations.ts";
import { AUTHORIZATION_REQUEST, at, CLIENT, providerInstance, signInThrough } from "./support/flow.ts";

const ENDPOINTS = { authorization: "/authorize", token: "/token", userInfo: "/users/@me" };

describe("discord", () => {
  const fake = useFakeProvider();

  it("signs in with prompt=none, no PKCE and the avatar URL from the CDN", async () => {
    fake.on("GET /users/@me", {
      json: {
        id: "80351110224678912",
        username: "nelly",
        global_name: "Nelly",
        discriminator: "0",
        avatar: "a_8342729096ea3675442027381ff50dfe",
        email: "nelly@example.com",
        verified: true,
      },
    });
    const t = await providerInstance(discord({ ...CLIENT, endpoints: at(fake, ENDPOINTS) }));
    const result = await signInThrough(t, "discord", fake);
    expectParams(result.authorize, { prompt: "none", scope: "identify email", code_challenge: null });
    expect(fake.last("/users/@me")!.headers.authorization).toBe("Bearer access-token-1");
    expect(result.session?.user).toMatchObject({
      name: "Nelly",
      email: "nelly@example.com",
      emailVerified: true,
      image: "https://cdn.discordapp.com/avatars/80351110224678912/a_8342729096ea3675442027381ff50dfe.gif",
    });
    expect(result.accounts[0]).toMatchObject({ providerId: "discord", accountId: "80351110224678912" });
  });

  it("picks the default avatar from the id (new usernames) or the discriminator (legacy)", async () => {
    const profile = { username: "u", global_name: null, avatar: null, email: null, verified: false };
    fake.on("GET /users/@me", { json: { ...profile, id: "80351110224678912", discriminator: "0" } });
    const provider = discord({ ...CLIENT, endpoints: at(fake, ENDPOINTS) });
    const info = await provider.getUserInfo({ accessToken: "t" });
    // (80351110224678912 >> 22) % 6 = 19157197529 % 6 = 5
    expect(info?.user.image).toBe("https://cdn.discordapp.com/embed/avatars/5.png");
    expect(info?.user.name).toBe("u");
    fake.on("GET /users/@me", { json: { ...profile, id: "1", discriminator: "1337" } });
    const legacy = await provider.getUserInfo({ accessToken: "t" });
    expect(legacy?.user.image).toBe("https://cdn.discordapp.com/embed/avatars/2.png");
  });

  it("sends bot permissions only with the bot scope", async () => {
    const provider = discord({ ...CLIENT, permissions: 8, endpoints: at(fake, ENDPOINTS) });
    const plain = await provider.createAuthorizationURL(AUTHORIZATION_REQUEST);
    expect(plain.searchParams.has("permissions")).toBe(false);
    const bot = await provider.createAuthorizationURL({ ...AUTHORIZATION_REQUEST, scopes: ["bot"] });
    expect(bot.searchParams.get("permissions")).toBe("8");
    expect(bot.searchParams.get("scope")).toBe("identify email bot");
  });
});
