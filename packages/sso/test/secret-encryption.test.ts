import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { symmetricDecrypt } from "@latchkey/core";
import {
  Browser,
  CLIENT_SECRET,
  TEST_SECRET,
  type TestAuth,
  type TestClient,
  type TestIdP,
} from "@latchkey/test-support";
import { AUTH, registration, signedIn, ssoInstance, startSSOIdP } from "./instance.ts";

const BASE = "http://localhost:3000";

let idp: TestIdP;
let t: TestAuth;
let owner: TestClient;
beforeAll(async () => {
  idp = await startSSOIdP(["sealed"]);
  idp.accounts.set("gus-sub", { email: "gus@sealed.example", email_verified: true, name: "Gus" });
  t = await ssoInstance("sqlite", idp, { encryptClientSecret: true });
});
afterAll(async () => {
  await t.close();
  await idp.close();
});

const storedConfig = async () => {
  const row = await t.auth.$context.adapter.findOne<{ id: string; oidcConfig: string }>({
    model: "ssoProvider",
    where: [{ field: "providerId", value: "sealed" }],
  });
  return { id: row!.id, config: JSON.parse(row!.oidcConfig) as Record<string, unknown> };
};

async function signIn(): Promise<string> {
  const browser = new Browser(BASE, t.auth.handler);
  idp.login("gus-sub");
  const res = await browser.post(`${AUTH}/sign-in/sso`, { callbackURL: "/dashboard", providerId: "sealed" });
  const { url } = (await res.json()) as { url: string };
  return (await browser.follow(url)).location;
}

describe("encryptClientSecret", () => {
  it("stores the client secret sealed with core's symmetric format; the IdP still accepts the client", async () => {
    owner = await signedIn(t, "sealer");
    expect(
      (await owner.post("/sso/register", { ...registration(idp, "sealed"), domain: "sealed.example" }))
        .status,
    ).toBe(200);
    const { config } = await storedConfig();
    expect(config.clientSecret).not.toBe(CLIENT_SECRET);
    expect(await symmetricDecrypt({ key: TEST_SECRET, data: String(config.clientSecret) })).toBe(
      CLIENT_SECRET,
    );
    expect(await signIn()).toBe(`${BASE}/dashboard`);
  });

  it("a row holding the secret in clear (written before the option, or by the reference) still signs in", async () => {
    const { id, config } = await storedConfig();
    await t.auth.$context.adapter.update({
      model: "ssoProvider",
      where: [{ field: "id", value: id }],
      update: { oidcConfig: JSON.stringify({ ...config, clientSecret: CLIENT_SECRET }) },
    });
    expect(await signIn()).toBe(`${BASE}/dashboard`);
  });

  it("a secret changed through update-provider is sealed too", async () => {
    const answer = await owner.post("/sso/update-provider", {
      providerId: "sealed",
      oidcConfig: { clientSecret: "a-new-secret" },
    });
    expect(answer.status).toBe(200);
    const { config } = await storedConfig();
    expect(config.clientSecret).not.toBe("a-new-secret");
    expect(await symmetricDecrypt({ key: TEST_SECRET, data: String(config.clientSecret) })).toBe(
      "a-new-secret",
    );
  });
});
