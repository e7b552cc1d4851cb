import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { oidcProvider } from "@latchkey/core";
import { organization } from "@latchkey/organization";
import {
  Browser,
  CLIENT_ID,
  CLIENT_SECRET,
  startIdP,
  type TestAuth,
  type TestIdP,
} from "@latchkey/test-support";
import { sso } from "../src/index.ts";
import { AUTH, registration, signedIn, ssoInstance } from "./instance.ts";
import { BASE, markVerified, sessionUser } from "./flow-helpers.ts";

let idp: TestIdP;
let t: TestAuth;
let organizationId: string;
beforeAll(async () => {
  idp = await startIdP([`${AUTH}/sso/callback/corp`, `${AUTH}/callback/social`]);
  idp.accounts.set("sam", { email: "sam@corp.example", email_verified: true, name: "Sam" });
  idp.accounts.set("uma", { email: "uma@corp.example", email_verified: false, name: "Uma" });
  idp.accounts.set("oli", { email: "oli@other.example", email_verified: true, name: "Oli" });
  const options = { domainVerification: { enabled: true } };
  t = await ssoInstance("sqlite", idp, options, {
    plugins: [sso(options), organization()],
    socialProviders: {
      social: oidcProvider({
        id: "social",
        issuer: idp.issuer,
        clientId: CLIENT_ID,
        clientSecret: CLIENT_SECRET,
      }),
    },
  });
  const owner = await signedIn(t, "corp-owner");
  organizationId = (
    (await owner.post("/organization/create", { name: "Corp", slug: "corp" })).json as { id: string }
  ).id;
  const registered = await owner.post("/sso/register", {
    ...registration(idp, "corp"),
    domain: "corp.example",
    organizationId,
  });
  if (registered.status !== 200) throw new Error(`register: ${registered.text}`);
});
afterAll(async () => {
  await t.close();
  await idp.close();
});

/** A social sign-in (core's /callback/social) as the IdP account `sub`. */
async function socialSignIn(sub: string) {
  const browser = new Browser(BASE, t.auth.handler);
  idp.login(sub);
  const res = await browser.post(`${AUTH}/sign-in/social`, { provider: "social", callbackURL: "/dashboard" });
  await browser.follow(((await res.json()) as { url: string }).url);
  return sessionUser(browser);
}

const rolesOf = (userId: unknown) =>
  t.auth.$context.adapter.findMany<{ role: string }>({
    model: "member",
    where: [
      { field: "organizationId", value: organizationId },
      { field: "userId", value: String(userId) },
    ],
  });

describe("organization membership by verified domain after a social sign-in", () => {
  it("nobody joins while the domain is unverified; once verified, a verified email in it joins as member", async () => {
    const early = await socialSignIn("sam");
    expect(early?.emailVerified).toBe(true);
    expect(await rolesOf(early?.id)).toEqual([]);
    await markVerified(t, "corp");
    const sam = await socialSignIn("sam");
    expect(await rolesOf(sam?.id)).toMatchObject([{ role: "member" }]);
  });

  it("an unverified email or one outside the domain joins nothing", async () => {
    const uma = await socialSignIn("uma");
    expect(uma?.email).toBe("uma@corp.example");
    expect(await rolesOf(uma?.id)).toEqual([]);
    const oli = await socialSignIn("oli");
    expect(await rolesOf(oli?.id)).toEqual([]);
  });
});
