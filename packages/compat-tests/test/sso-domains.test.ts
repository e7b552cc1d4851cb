import { getServers, setServers } from "node:dns";
import dnsPromises from "node:dns/promises";
import { syncBuiltinESMExports } from "node:module";
import { sso as referenceSSO } from "@better-auth/sso";
import { ssoClient } from "@better-auth/sso/client";
import { createAuthClient } from "better-auth/client";
import { organization as referenceOrganization } from "better-auth/plugins";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { organization } from "@latchkey/organization";
import { sso } from "@latchkey/sso";
import { Browser, startDNSServer, startIdP, type TestDNSServer, type TestIdP } from "@latchkey/test-support";
import { jarFetch } from "./support/client-fetch.ts";
import { signUp } from "./support/flows.ts";
import { listen } from "./support/server.ts";
import { BASE_PATH, createPair, jsonPost, type Handler, type Pair } from "./support/instances.ts";
import { OFFLINE_OIDC_CONFIG, registerProvider } from "./support/sso-provider.ts";

/**
 * `@latchkey/sso` domain verification and organization provisioning beside the reference's
 * (`@better-auth/sso` 1.7.5) on one database, against a DNS server and an OpenID provider on
 * 127.0.0.1: a domain verified on one side is verified on the other; a membership the
 * reference provisioned is Latchkey's too; divergence row 125 (a verified domain's
 * `email_verified`).
 */
const PASSWORD = "password-1234";
const ORIGIN = "http://localhost:3000";
const AUTH = `${ORIGIN}/api/auth`;
let n = 0;
const user = () => ({ email: `dv-${++n}@example.com`, password: PASSWORD, name: "D" });

const post = async (handler: Handler, cookie: string, path: string, body: unknown) => {
  const response = await handler(jsonPost(path, body, { cookie }));
  return {
    status: response.status,
    json: (await response.json().catch(() => null)) as Record<string, unknown> | null,
  };
};

let idp: TestIdP;
let dns: TestDNSServer;
let systemServers: string[];
/**
 * Sets the default resolver of both DNS APIs. The named exports of `node:dns/promises` (what the
 * reference's `await import("node:dns/promises")` reads) are fixed when the module is first
 * imported, which in a shared worker may be another file's doing: they are brought up to date.
 */
function useServers(servers: string[]) {
  setServers(servers);
  dnsPromises.setServers(servers);
  syncBuiltinESMExports();
}

beforeAll(async () => {
  idp = await startIdP(["dv-ref", "dv-lk", "org-ref", "trust"].map((id) => `${AUTH}/sso/callback/${id}`));
  idp.accounts.set("gail-sub", { email: "gail@org.example.com", email_verified: true, name: "Gail" });
  idp.accounts.set("hal-sub", { email: "hal@cross.example.com", email_verified: true, name: "Hal" });
  idp.accounts.set("tess-sub", { email: "tess@trust.example.com", email_verified: true, name: "Tess" });
  dns = await startDNSServer();
  // The reference asks node:dns/promises' default resolver; point it (in this worker) at the test
  // server.
  systemServers = getServers();
  useServers([dns.address]);
});
afterAll(async () => {
  useServers(systemServers);
  await dns.close();
  await idp.close();
});

/** Runs an SSO sign-in on `handler` as the IdP account `sub`; answers the signed-in user (or null) and where it ended. */
async function ssoSignIn(handler: Handler, sub: string, providerId: string) {
  const browser = new Browser(ORIGIN, handler);
  idp.login(sub);
  const started = await browser.post(`${AUTH}/sign-in/sso`, { providerId, callbackURL: "/dashboard" });
  if (started.status !== 200) return { status: started.status, user: null, location: null };
  const { location } = await browser.follow(((await started.json()) as { url: string }).url);
  const session = (await (await browser.send(`${AUTH}/get-session`)).json()) as {
    user: { id: string; email: string; emailVerified: boolean };
  } | null;
  return { status: 200, user: session?.user ?? null, location };
}

describe("sso domain verification across the two (real DNS over UDP)", () => {
  let pair: Pair;
  beforeAll(async () => {
    pair = await createPair({
      reference: {
        plugins: [referenceSSO({ domainVerification: { enabled: true } })],
        trustedOrigins: [idp.issuer],
      },
      latchkey: {
        plugins: [sso({ domainVerification: { enabled: true, nameservers: [dns.address] } })],
        trustedOrigins: [idp.issuer],
      },
    });
  });
  afterAll(() => pair.close());

  it.each([
    ["reference", "latchkey", "dv-ref", "gail-sub"],
    ["latchkey", "reference", "dv-lk", "hal-sub"],
  ] as const)(
    "registered on %s, verified on %s: the same token and record, verified on both",
    async (maker, verifier, id, sub) => {
      const owner = await signUp(pair.reference, user());
      const domain = `${id}.example.com`;
      const registered = await registerProvider(pair[maker], owner, {
        providerId: id,
        issuer: idp.issuer,
        domain,
      });
      expect(registered).toMatchObject({ domainVerified: false });
      const token = registered.domainVerificationToken;
      // Both sides refuse sign-in through the unverified provider.
      expect((await ssoSignIn(pair.reference, sub, id)).status).toBe(401);
      expect((await ssoSignIn(pair.latchkey, sub, id)).status).toBe(401);
      // The other side finds the same live token (same verification identifier).
      const requested = await post(pair[verifier], owner.cookie, "/sso/request-domain-verification", {
        providerId: id,
      });
      expect(requested).toEqual({ status: 201, json: { domainVerificationToken: token } });
      dns.txt.set(`_better-auth-token-${id}.${domain}`, [`_better-auth-token-${id}=${String(token)}`]);
      expect(
        (await post(pair[verifier], owner.cookie, "/sso/verify-domain", { providerId: id })).status,
      ).toBe(204);
      for (const side of ["reference", "latchkey"] as const) {
        const again = await post(pair[side], owner.cookie, "/sso/verify-domain", { providerId: id });
        expect(again.status).toBe(409);
        expect(again.json?.code).toBe("DOMAIN_VERIFIED");
      }
      const row = pair.db.prepare("select domainVerified from ssoProvider where providerId = ?").all([id]);
      expect(row).toEqual([{ domainVerified: 1 }]);
      expect((await ssoSignIn(pair[maker], sub, id)).location).toBe(`${ORIGIN}/dashboard`);
    },
  );

  it("row 125: through a verified domain the reference stores email_verified: false, Latchkey true", async () => {
    const owner = await signUp(pair.reference, user());
    await registerProvider(pair.reference, owner, { providerId: "trust", issuer: idp.issuer });
    pair.db.prepare("update ssoProvider set domainVerified = 1 where providerId = ?").run(["trust"]);
    const reference = await ssoSignIn(pair.reference, "tess-sub", "trust");
    expect(reference.user).toMatchObject({ email: "tess@trust.example.com", emailVerified: false });
    pair.db.prepare("delete from user where email = ?").run(["tess@trust.example.com"]);
    const latchkey = await ssoSignIn(pair.latchkey, "tess-sub", "trust");
    expect(latchkey.user).toMatchObject({ email: "tess@trust.example.com", emailVerified: true });
  });
});

describe("sso organization provisioning across the two", () => {
  let pair: Pair;
  beforeAll(async () => {
    pair = await createPair({
      reference: { plugins: [referenceSSO(), referenceOrganization()], trustedOrigins: [idp.issuer] },
      latchkey: { plugins: [sso(), organization()], trustedOrigins: [idp.issuer] },
    });
  });
  afterAll(() => pair.close());

  it("a membership the reference provisioned on SSO sign-in is Latchkey's: listed, and not added twice", async () => {
    const owner = await signUp(pair.reference, user());
    const created = await post(pair.reference, owner.cookie, "/organization/create", {
      name: "Org",
      slug: "org-dv",
    });
    const organizationId = String(created.json?.id);
    await registerProvider(pair.reference, owner, {
      providerId: "org-ref",
      issuer: idp.issuer,
      domain: "org.example.com",
      organizationId,
    });
    const first = await ssoSignIn(pair.reference, "gail-sub", "org-ref");
    const members = () =>
      pair.db
        .prepare("select role from member where organizationId = ? and userId = ?")
        .all([organizationId, first.user!.id]);
    expect(members()).toEqual([{ role: "member" }]);
    // Latchkey signs the same person in through the same provider: the membership stands, one row.
    const second = await ssoSignIn(pair.latchkey, "gail-sub", "org-ref");
    expect(second.user?.id).toBe(first.user!.id);
    expect(members()).toEqual([{ role: "member" }]);
    // And it is a membership Latchkey's organization plugin serves.
    const browser = new Browser(ORIGIN, pair.latchkey);
    idp.login("gail-sub");
    const started = await browser.post(`${AUTH}/sign-in/sso`, { providerId: "org-ref", callbackURL: "/" });
    await browser.follow(((await started.json()) as { url: string }).url);
    const listed = (await (await browser.send(`${AUTH}/organization/list`)).json()) as { id: string }[];
    expect(listed.map((o) => o.id)).toEqual([organizationId]);
  });
});

describe("sso domain verification through the reference's ssoClient() over real HTTP", () => {
  it("sso.requestDomainVerification and sso.verifyDomain answer alike on both sides", async () => {
    async function run(side: "reference" | "latchkey") {
      const server = await listen();
      const pair = await createPair({
        baseURL: server.origin,
        reference: { plugins: [referenceSSO({ domainVerification: { enabled: true } })] },
        latchkey: { plugins: [sso({ domainVerification: { enabled: true, nameservers: [dns.address] } })] },
      });
      server.use(pair[side]);
      try {
        const browser = jarFetch();
        const client = createAuthClient({
          baseURL: `${server.origin}${BASE_PATH}`,
          fetchOptions: { customFetchImpl: browser.fetch },
          plugins: [ssoClient()],
        });
        // The proxy derives the methods from the paths; the types only know them when the server's options are inferred.
        const sso_ = client.sso as unknown as Record<
          string,
          (body: unknown) => Promise<{ data: unknown; error: { status: number } | null }>
        >;
        await client.signUp.email({ email: `c-${side}@example.com`, password: PASSWORD, name: "C" });
        const id = `client-${side}`;
        const domain = `${id}.example.com`;
        await client.sso.register({
          providerId: id,
          issuer: "https://idp.example.com",
          domain,
          oidcConfig: OFFLINE_OIDC_CONFIG,
        });
        const requested = await sso_.requestDomainVerification!({ providerId: id });
        const token = (requested.data as { domainVerificationToken: string }).domainVerificationToken;
        const missing = await sso_.verifyDomain!({ providerId: id });
        dns.txt.set(`_better-auth-token-${id}.${domain}`, [token]);
        const verified = await sso_.verifyDomain!({ providerId: id });
        return {
          token: typeof token === "string" && token.length === 24,
          missing: missing.error?.status,
          verified: { data: verified.data ?? null, error: verified.error },
        };
      } finally {
        pair.close();
        await server.close();
      }
    }
    const reference = await run("reference");
    expect(reference).toEqual({ token: true, missing: 502, verified: { data: null, error: null } });
    expect(await run("latchkey")).toEqual(reference);
  });
});
