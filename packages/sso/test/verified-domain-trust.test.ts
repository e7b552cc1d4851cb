import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, type TestAuth, type TestIdP } from "@latchkey/test-support";
import { PASSWORD, registration, signedIn, ssoInstance, startSSOIdP } from "./instance.ts";
import { BASE, markVerified, sessionUser, ssoSignIn } from "./flow-helpers.ts";

let idp: TestIdP;
let verifying: TestAuth;
let plain: TestAuth;
beforeAll(async () => {
  idp = await startSSOIdP(["acme"]);
  idp.accounts.set("in-domain", { email: "ivy@acme.example", email_verified: true, name: "Ivy" });
  idp.accounts.set("claim-false", { email: "cal@acme.example", email_verified: false, name: "Cal" });
  idp.accounts.set("outside", { email: "otto@elsewhere.example", email_verified: true, name: "Otto" });
  idp.accounts.set("linker", { email: "lena@acme.example", email_verified: false, name: "Lena" });
  verifying = await ssoInstance("sqlite", idp, { domainVerification: { enabled: true } });
  plain = await ssoInstance("sqlite", idp);
  for (const t of [verifying, plain]) {
    const owner = await signedIn(t, "owner");
    if ((await owner.post("/sso/register", registration(idp, "acme"))).status !== 200)
      throw new Error("register");
  }
  await markVerified(verifying, "acme");
});
afterAll(async () => {
  await verifying.close();
  await plain.close();
  await idp.close();
});

/** A local email/password user whose email is verified. */
async function localUser(t: TestAuth, email: string): Promise<string> {
  const answer = await client(t.auth).post("/sign-up/email", { email, password: PASSWORD, name: "Local" });
  const id = (answer.json as { user: { id: string } }).user.id;
  await t.auth.$context.adapter.update({
    model: "user",
    where: [{ field: "id", value: id }],
    update: { emailVerified: true },
  });
  return id;
}

describe("a verified domain vouches for its addresses", () => {
  it("stores email_verified: true for an email in the verified domain (divergence row 125), not outside it, not a false claim", async () => {
    const inDomain = await ssoSignIn(verifying, idp, "in-domain", { providerId: "acme" });
    expect(inDomain.location).toBe(`${BASE}/dashboard`);
    expect(await sessionUser(inDomain.browser)).toMatchObject({
      email: "ivy@acme.example",
      emailVerified: true,
    });
    const outside = await ssoSignIn(verifying, idp, "outside", { providerId: "acme" });
    expect(await sessionUser(outside.browser)).toMatchObject({
      email: "otto@elsewhere.example",
      emailVerified: false,
    });
    const claimFalse = await ssoSignIn(verifying, idp, "claim-false", { providerId: "acme" });
    expect(await sessionUser(claimFalse.browser)).toMatchObject({ emailVerified: false });
  });

  it("without a verified domain the claim is not stored (the reference's rule without trustEmailVerified)", async () => {
    const { browser } = await ssoSignIn(plain, idp, "in-domain", { providerId: "acme" });
    expect(await sessionUser(browser)).toMatchObject({ email: "ivy@acme.example", emailVerified: false });
  });

  it("links to an existing user by a verified domain even when the IdP does not claim email_verified (the reference's isTrustedProvider)", async () => {
    const id = await localUser(verifying, "lena@acme.example");
    const { browser, location } = await ssoSignIn(verifying, idp, "linker", { providerId: "acme" });
    expect(location).toBe(`${BASE}/dashboard`);
    expect((await sessionUser(browser))?.id).toBe(id);
    expect(
      await verifying.auth.$context.adapter.count({
        model: "account",
        where: [
          { field: "userId", value: id },
          { field: "providerId", value: "acme" },
        ],
      }),
    ).toBe(1);
    // The same without a verified domain: no link, the error redirect.
    await localUser(plain, "lena@acme.example");
    const refused = await ssoSignIn(plain, idp, "linker", { providerId: "acme" });
    expect(new URL(refused.location!).searchParams.get("error")).toBe("unable_to_link_account");
  });
});
