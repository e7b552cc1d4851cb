import { sso as referenceSSO } from "@better-auth/sso";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sso } from "@latchkey/sso";
import { Browser, startIdP, type TestIdP } from "@latchkey/test-support";
import { signUp } from "./support/flows.ts";
import { BASE_PATH, createPair, type Pair } from "./support/instances.ts";
import { registerProvider } from "./support/sso-provider.ts";
import { listen, type LiveServer } from "./support/server.ts";

/**
 * A sign-in started on one implementation and finished on the other, as during a rolling
 * upgrade: one database, one public origin on 127.0.0.1 served over HTTP by the reference, then
 * by Latchkey (or the other way round), a real OpenID provider. The state's
 * `serverContext.ssoProviderReference` (source and configuration fingerprint) written by one
 * side must be read and accepted by the other, and refused by both once the provider changed.
 */
describe("sso: a sign-in started on one side finishes on the other (state and fingerprint format)", () => {
  let idp: TestIdP;
  let server: LiveServer;
  let pair: Pair;
  let n = 0;
  beforeAll(async () => {
    server = await listen();
    idp = await startIdP([`${server.origin}${BASE_PATH}/sso/callback/both`]);
    for (const who of ["gil", "hal", "ivy", "jo"])
      idp.accounts.set(`${who}-sub`, { email: `${who}@both.example.com`, email_verified: true, name: who });
    pair = await createPair({
      baseURL: server.origin,
      reference: { plugins: [referenceSSO()], trustedOrigins: [idp.issuer] },
      latchkey: { plugins: [sso()], trustedOrigins: [idp.issuer] },
    });
    server.use(pair.reference);
    const owner = await signUp(pair.reference, {
      email: "owner@both.example.com",
      password: "password-1234",
      name: "O",
    });
    await registerProvider(pair.latchkey, owner, { providerId: "both", issuer: idp.issuer }, server.origin);
  });
  afterAll(async () => {
    pair.close();
    await server.close();
    await idp.close();
  });

  /** Starts on `first` over HTTP, then serves the rest of the flow with `second`. */
  async function crossFlow(
    first: "reference" | "latchkey",
    second: "reference" | "latchkey",
    between?: () => Promise<void>,
  ) {
    const who = ["gil", "hal", "ivy", "jo"][n++]!;
    const browser = new Browser(server.origin, (request) => fetch(request));
    server.use(pair[first]);
    idp.login(`${who}-sub`);
    const started = await browser.post(`${server.origin}${BASE_PATH}/sign-in/sso`, {
      providerId: "both",
      callbackURL: "/dashboard",
      errorCallbackURL: "/oops",
    });
    expect(started.status).toBe(200);
    const { url } = (await started.json()) as { url: string };
    await between?.();
    server.use(pair[second]);
    const { location } = await browser.follow(url);
    const session = (await (await browser.send(`${server.origin}${BASE_PATH}/get-session`)).json()) as {
      user: { email: string };
    } | null;
    return { location: new URL(location, server.origin), email: session?.user.email, who };
  }

  it.each([
    ["reference", "latchkey"],
    ["latchkey", "reference"],
  ] as const)("started on %s, finished on %s: signed in, account keyed by sub", async (first, second) => {
    const { location, email, who } = await crossFlow(first, second);
    expect([location.pathname, location.search, email]).toEqual([
      "/dashboard",
      "",
      `${who}@both.example.com`,
    ]);
    expect(pair.db.prepare("select accountId from account where accountId = ?").all([`${who}-sub`])).toEqual([
      { accountId: `${who}-sub` },
    ]);
  });

  it.each([
    ["reference", "latchkey"],
    ["latchkey", "reference"],
  ] as const)(
    "row 123: started on %s, provider changed, finished on %s: refused with invalid_state",
    async (first, second) => {
      const row = pair.db.prepare("select oidcConfig from ssoProvider where providerId = 'both'").all([]) as {
        oidcConfig: string;
      }[];
      const original = row[0]!.oidcConfig;
      const { location, email } = await crossFlow(first, second, async () => {
        // A change of what the fingerprint covers (the scopes), made between sign-in and callback.
        const changed = JSON.stringify({ ...JSON.parse(original), scopes: ["openid", "email"] });
        pair.db.prepare("update ssoProvider set oidcConfig = ? where providerId = 'both'").run([changed]);
      });
      pair.db.prepare("update ssoProvider set oidcConfig = ? where providerId = 'both'").run([original]);
      expect([location.pathname, location.searchParams.get("error"), email]).toEqual([
        "/oops",
        "invalid_state",
        undefined,
      ]);
    },
  );
});

describe("sso: the shared callback (redirectURI) across the two", () => {
  let idp: TestIdP;
  let server: LiveServer;
  let pair: Pair;
  beforeAll(async () => {
    server = await listen();
    idp = await startIdP([`${server.origin}${BASE_PATH}/sso/callback`]);
    for (const who of ["kai", "lu"])
      idp.accounts.set(`${who}-sub`, { email: `${who}@shared.example.com`, email_verified: true, name: who });
    pair = await createPair({
      baseURL: server.origin,
      reference: { plugins: [referenceSSO({ redirectURI: "/sso/callback" })], trustedOrigins: [idp.issuer] },
      latchkey: { plugins: [sso({ redirectURI: "/sso/callback" })], trustedOrigins: [idp.issuer] },
    });
    const owner = await signUp(pair.reference, {
      email: "owner@shared.example.com",
      password: "password-1234",
      name: "O",
    });
    await registerProvider(
      pair.reference,
      owner,
      { providerId: "shared", issuer: idp.issuer },
      server.origin,
    );
  });
  afterAll(async () => {
    pair.close();
    await server.close();
    await idp.close();
  });

  it.each([
    ["reference", "latchkey", "kai"],
    ["latchkey", "reference", "lu"],
  ] as const)(
    "started on %s, the IdP's answer at /sso/callback served by %s: signed in",
    async (first, second, who) => {
      const browser = new Browser(server.origin, (request) => fetch(request));
      server.use(pair[first]);
      idp.login(`${who}-sub`);
      const started = await browser.post(`${server.origin}${BASE_PATH}/sign-in/sso`, {
        email: `${who}@shared.example.com`,
        callbackURL: "/dashboard",
      });
      const { url } = (await started.json()) as { url: string };
      expect(new URL(url).searchParams.get("redirect_uri")).toBe(`${server.origin}${BASE_PATH}/sso/callback`);
      server.use(pair[second]);
      const { location } = await browser.follow(url);
      expect(location).toBe(`${server.origin}/dashboard`);
      const session = (await (await browser.send(`${server.origin}${BASE_PATH}/get-session`)).json()) as {
        user: { email: string };
      } | null;
      expect(session?.user.email).toBe(`${who}@shared.example.com`);
    },
  );
});
