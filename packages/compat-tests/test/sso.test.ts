import { sso as referenceSSO } from "@better-auth/sso";
import { ssoClient } from "@better-auth/sso/client";
import { createAuthClient } from "better-auth/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sso } from "@latchkey/sso";
import { Browser, startIdP, type TestIdP } from "@latchkey/test-support";
import { jarFetch } from "./support/client-fetch.ts";
import { signUp } from "./support/flows.ts";
import { BASE_PATH, createPair, jsonPost, type Handler, type Pair } from "./support/instances.ts";
import { listen } from "./support/server.ts";
import { OFFLINE_OIDC_CONFIG, providerBody, registerProvider } from "./support/sso-provider.ts";

/**
 * `@latchkey/sso` beside the reference's `sso()` (`@better-auth/sso` 1.7.5) on one database:
 * a provider registered on one side is read and managed on the other, and divergence rows
 * 1000-1001 (registration without an OIDC configuration; the secret in the register answer).
 */
const PASSWORD = "password-1234";
let n = 0;
const user = () => ({ email: `sso-${++n}@example.com`, password: PASSWORD, name: "S" });

const post = async (handler: Handler, cookie: string, path: string, body: unknown) => {
  const response = await handler(jsonPost(path, body, { cookie }));
  return {
    status: response.status,
    json: (await response.json().catch(() => null)) as Record<string, unknown> | null,
  };
};
const get = async (handler: Handler, cookie: string, path: string) => {
  const response = await handler(
    new Request(`http://localhost:3000/api/auth${path}`, { headers: { cookie } }),
  );
  return {
    status: response.status,
    json: (await response.json().catch(() => null)) as Record<string, unknown> | null,
  };
};

describe("sso: providers cross between the two", () => {
  let pair: Pair;
  beforeAll(async () => {
    pair = await createPair({
      reference: { plugins: [referenceSSO()] },
      latchkey: { plugins: [sso()] },
    });
  });
  afterAll(() => pair.close());

  it.each([
    ["reference", "latchkey"],
    ["latchkey", "reference"],
  ] as const)(
    "registered on %s, read, updated and deleted on %s with the same sanitized answer",
    async (maker, reader) => {
      const owner = await signUp(pair.reference, user());
      const id = `cross-${maker}`;
      await registerProvider(pair[maker], owner, { providerId: id, oidcConfig: OFFLINE_OIDC_CONFIG });
      const mine = await get(pair[maker], owner.cookie, `/sso/get-provider?providerId=${id}`);
      const theirs = await get(pair[reader], owner.cookie, `/sso/get-provider?providerId=${id}`);
      expect(theirs.status).toBe(200);
      expect(theirs.json).toEqual(mine.json);
      const updated = await post(pair[reader], owner.cookie, "/sso/update-provider", {
        providerId: id,
        domain: `${id}.example.org`,
      });
      expect(updated.json?.domain).toBe(`${id}.example.org`);
      expect((await get(pair[maker], owner.cookie, `/sso/get-provider?providerId=${id}`)).json?.domain).toBe(
        `${id}.example.org`,
      );
      expect(
        (await post(pair[reader], owner.cookie, "/sso/delete-provider", { providerId: id })).json,
      ).toEqual({ success: true });
      expect((await get(pair[maker], owner.cookie, `/sso/get-provider?providerId=${id}`)).status).toBe(404);
    },
  );

  it("row 120: without oidcConfig the reference stores the provider; Latchkey answers 400 naming what is missing", async () => {
    const owner = await signUp(pair.reference, user());
    const body = { providerId: "empty-ref", issuer: "https://idp.example.com", domain: "empty.example.com" };
    const reference = await post(pair.reference, owner.cookie, "/sso/register", body);
    expect(reference.status).toBe(200);
    const latchkey = await post(pair.latchkey, owner.cookie, "/sso/register", {
      ...body,
      providerId: "empty-lk",
    });
    expect(latchkey).toEqual({
      status: 400,
      json: { code: "INVALID_OIDC_CONFIG", message: "Incomplete OIDC configuration: missing oidcConfig" },
    });
    expect((await get(pair.reference, owner.cookie, "/sso/get-provider?providerId=empty-lk")).status).toBe(
      404,
    );
    // A sign-in through the provider the reference stored: both refuse it alike.
    const signIn = { callbackURL: "/d", providerId: "empty-ref" };
    const answers = await Promise.all(
      (["reference", "latchkey"] as const).map(async (side) => {
        const response = await pair[side](jsonPost("/sign-in/sso", signIn));
        return { status: response.status, json: await response.json() };
      }),
    );
    expect(answers[1]).toEqual({ status: 400, json: { message: "Invalid SSO provider" } });
    expect(answers[0]).toEqual(answers[1]);
  });

  it("row 121: the reference's register answer carries the client secret; Latchkey's does not", async () => {
    const owner = await signUp(pair.reference, user());
    const offline = { oidcConfig: OFFLINE_OIDC_CONFIG };
    const reference = await registerProvider(pair.reference, owner, { providerId: "secret-ref", ...offline });
    expect(JSON.stringify(reference)).toContain("the-client-secret");
    const latchkey = await registerProvider(pair.latchkey, owner, { providerId: "secret-lk", ...offline });
    expect(JSON.stringify(latchkey)).not.toContain("the-client-secret");
    expect(latchkey.oidcConfig).toMatchObject({ clientIdLastFour: "****1234" });
  });

  it("row 141: a providerId that needs percent-encoding: the reference answers it raw in the redirect URI, Latchkey encoded", async () => {
    const owner = await signUp(pair.reference, user());
    const offline = { oidcConfig: OFFLINE_OIDC_CONFIG, domain: "tenant.example.com" };
    const reference = await registerProvider(pair.reference, owner, {
      providerId: "Acme EU/tenant #1",
      ...offline,
    });
    const latchkey = await registerProvider(pair.latchkey, owner, {
      providerId: "Acme EU/tenant #2",
      ...offline,
    });
    const callback = "http://localhost:3000/api/auth/sso/callback/";
    // Raw: the slash adds a path segment `/sso/callback/:providerId` cannot match, `#` starts a fragment.
    expect(reference.redirectURI).toBe(`${callback}Acme EU/tenant #1`);
    expect(latchkey.redirectURI).toBe(`${callback}Acme%20EU%2Ftenant%20%232`);
    // Both sides serve the provider the other registered, by its id.
    const read = await get(
      pair.latchkey,
      owner.cookie,
      `/sso/get-provider?providerId=${encodeURIComponent("Acme EU/tenant #1")}`,
    );
    expect(read.json?.providerId).toBe("Acme EU/tenant #1");
  });
});

describe("sso: the reference's ssoClient() over real HTTP", () => {
  async function flow(side: "reference" | "latchkey") {
    const server = await listen();
    const pair = await createPair({
      baseURL: server.origin,
      reference: { plugins: [referenceSSO()] },
      latchkey: { plugins: [sso()] },
    });
    server.use(pair[side]);
    try {
      const browser = jarFetch();
      const client = createAuthClient({
        baseURL: `${server.origin}${BASE_PATH}`,
        fetchOptions: { customFetchImpl: browser.fetch },
        plugins: [ssoClient()],
      });
      await client.signUp.email({ email: "client@example.com", password: PASSWORD, name: "C" });
      const registered = await client.sso.register(
        providerBody({ providerId: "client", oidcConfig: OFFLINE_OIDC_CONFIG }),
      );
      const listed = await client.sso.providers();
      const got = await client.sso.getProvider({ query: { providerId: "client" } });
      const updated = await client.sso.updateProvider({ providerId: "client", domain: "c.example.com" });
      const signIn = await client.signIn.sso({ providerId: "client", callbackURL: "/dashboard" });
      const deleted = await client.sso.deleteProvider({ providerId: "client" });
      return {
        registered: registered.data?.providerId,
        listed: listed.data?.providers.map((p) => p.providerId),
        // Each run listens on its own port.
        got: got.data && {
          ...got.data,
          spMetadataUrl: got.data.spMetadataUrl?.replace(server.origin, "<origin>"),
        },
        updated: updated.data?.domain,
        signIn: new URL(signIn.data!.url).origin + new URL(signIn.data!.url).pathname,
        deleted: deleted.data,
      };
    } finally {
      pair.close();
      await server.close();
    }
  }

  it("register, providers, getProvider, updateProvider, signIn.sso and deleteProvider answer alike", async () => {
    const reference = await flow("reference");
    expect(reference.signIn).toBe("https://idp.example.com/authorize");
    expect(await flow("latchkey")).toEqual(reference);
  });
});

describe("sso: a provider registered on one side signs users in on the other (real IdP)", () => {
  let idp: TestIdP;
  let pair: Pair;
  beforeAll(async () => {
    idp = await startIdP(
      ["cross-ref", "cross-lk"].map((id) => `http://localhost:3000/api/auth/sso/callback/${id}`),
    );
    // One person per case: a user the other case created would need account linking.
    idp.accounts.set("erin-sub", { email: "erin@cross.example.com", email_verified: true, name: "Erin" });
    idp.accounts.set("finn-sub", { email: "finn@cross.example.com", email_verified: true, name: "Finn" });
    pair = await createPair({
      reference: { plugins: [referenceSSO()], trustedOrigins: [idp.issuer] },
      latchkey: { plugins: [sso()], trustedOrigins: [idp.issuer] },
    });
  });
  afterAll(async () => {
    pair.close();
    await idp.close();
  });

  it.each([
    ["reference", "latchkey", "cross-ref", "erin"],
    ["latchkey", "reference", "cross-lk", "finn"],
  ] as const)(
    "registered with discovery on %s, sign-in on %s ends with a session and an account keyed by sub",
    async (maker, signer, id, who) => {
      const owner = await signUp(pair.reference, user());
      await registerProvider(pair[maker], owner, { providerId: id, issuer: idp.issuer });
      const browser = new Browser("http://localhost:3000", pair[signer]);
      idp.login(`${who}-sub`);
      const started = await browser.post("http://localhost:3000/api/auth/sign-in/sso", {
        providerId: id,
        callbackURL: "/dashboard",
      });
      const { url } = (await started.json()) as { url: string };
      const { location } = await browser.follow(url);
      expect(location).toBe("http://localhost:3000/dashboard");
      const session = (await (await browser.send("http://localhost:3000/api/auth/get-session")).json()) as {
        user: { email: string };
      } | null;
      expect(session?.user.email).toBe(`${who}@cross.example.com`);
      const account = pair.db.prepare("select accountId from account where providerId = ?").all([id]) as {
        accountId: string;
      }[];
      expect(account).toEqual([{ accountId: `${who}-sub` }]);
    },
  );
});
