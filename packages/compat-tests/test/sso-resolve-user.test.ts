import { sso as referenceSSO } from "@better-auth/sso";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sso } from "@latchkey/sso";
import { Browser, startIdP, type TestIdP } from "@latchkey/test-support";
import { signUp } from "./support/flows.ts";
import { BASE_PATH, createPair, type Pair } from "./support/instances.ts";
import { registerProvider } from "./support/sso-provider.ts";
import { listen, type LiveServer } from "./support/server.ts";

type Side = "reference" | "latchkey";
type Decision = Record<string, unknown>;

/**
 * `resolveUser` on both implementations over one database and a real OpenID provider: the same
 * resolver sees the same input and its `link` and `reject` decisions have the same outcome.
 */
describe("sso: resolveUser answers and outcomes match the reference", () => {
  let idp: TestIdP;
  let server: LiveServer;
  let pair: Pair;
  const seen: Record<Side, Record<string, unknown>[]> = { reference: [], latchkey: [] };
  let decide: (input: Record<string, unknown>) => Decision = () => ({ action: "continue" });
  const resolver = (side: Side) => (input: unknown) => {
    seen[side].push(input as Record<string, unknown>);
    return decide(input as Record<string, unknown>) as never;
  };
  let chosenId: Record<Side, string>;

  beforeAll(async () => {
    server = await listen();
    idp = await startIdP([`${server.origin}${BASE_PATH}/sso/callback/resolve`]);
    for (const side of ["reference", "latchkey"] as const)
      for (const who of ["kim", "lee"])
        idp.accounts.set(`${who}-${side}`, {
          email: `${who}-${side}@resolve.example.com`,
          email_verified: true,
          name: `${who} IdP`,
        });
    pair = await createPair({
      baseURL: server.origin,
      reference: {
        plugins: [referenceSSO({ resolveUser: resolver("reference") })],
        trustedOrigins: [idp.issuer],
      },
      latchkey: { plugins: [sso({ resolveUser: resolver("latchkey") })], trustedOrigins: [idp.issuer] },
    });
    const owner = await signUp(pair.reference, {
      email: "owner@resolve.example.com",
      password: "password-1234",
      name: "O",
    });
    await registerProvider(
      pair.latchkey,
      owner,
      { providerId: "resolve", issuer: idp.issuer },
      server.origin,
    );
    chosenId = { reference: "", latchkey: "" };
    for (const side of ["reference", "latchkey"] as const) {
      const chosen = await signUp(pair[side], {
        email: `chosen-${side}@elsewhere.example.com`,
        password: "password-1234",
        name: `Chosen ${side}`,
      });
      chosenId[side] = chosen.userId;
    }
  });
  afterAll(async () => {
    pair.close();
    await server.close();
    await idp.close();
  });

  async function flow(side: Side, sub: string) {
    server.use(pair[side]);
    const browser = new Browser(server.origin, (request) => fetch(request));
    idp.login(sub);
    const started = await browser.post(`${server.origin}${BASE_PATH}/sign-in/sso`, {
      providerId: "resolve",
      callbackURL: "/dashboard",
      errorCallbackURL: "/oops",
    });
    const { url } = (await started.json()) as { url: string };
    const { location } = await browser.follow(url);
    const session = (await (await browser.send(`${server.origin}${BASE_PATH}/get-session`)).json()) as {
      user: { id: string; email: string };
    } | null;
    const at = new URL(location, server.origin);
    return {
      path: at.pathname,
      error: at.searchParams.get("error"),
      description: at.searchParams.get("error_description"),
      userId: session?.user.id ?? null,
    };
  }

  const accountOwner = (sub: string) =>
    (
      pair.db.prepare("select userId from account where accountId = ?").all([sub]) as { userId: string }[]
    ).map((r) => r.userId);

  it("link: the chosen user (another email) gets the account and session, with the same resolver input", async () => {
    for (const side of ["reference", "latchkey"] as const) {
      decide = () => ({ action: "link", userId: chosenId[side], profile: "preserve" });
      const outcome = await flow(side, `kim-${side}`);
      expect(outcome).toEqual({ path: "/dashboard", error: null, description: null, userId: chosenId[side] });
      expect(accountOwner(`kim-${side}`)).toEqual([chosenId[side]]);
    }
    const shape = (input: Record<string, unknown>, side: Side) => {
      const text = JSON.stringify(input).replaceAll(`-${side}`, "-SIDE");
      const parsed = JSON.parse(text) as Record<string, Record<string, unknown>>;
      // Claims the IdP stamps per token.
      for (const claims of [parsed.verifiedIdTokenClaims!, parsed.providerClaims!])
        for (const volatile of ["iat", "exp", "auth_time", "at_hash", "jti", "sid", "c_hash"])
          delete claims[volatile];
      return parsed;
    };
    expect(shape(seen.latchkey[0]!, "latchkey")).toEqual(shape(seen.reference[0]!, "reference"));
  });

  it("reject: the resolver's code and message at the error URL, nothing written", async () => {
    decide = () => ({ action: "reject", code: "tenant_closed", message: "Tenant is closed" });
    for (const side of ["reference", "latchkey"] as const) {
      const users = pair.db.prepare("select count(*) as n from user").all([]);
      const outcome = await flow(side, `lee-${side}`);
      expect(outcome).toEqual({
        path: "/oops",
        error: "tenant_closed",
        description: "Tenant is closed",
        userId: null,
      });
      expect(accountOwner(`lee-${side}`)).toEqual([]);
      expect(pair.db.prepare("select count(*) as n from user").all([])).toEqual(users);
    }
  });

  it("an unknown chosen user and a throwing resolver: the same error codes", async () => {
    const outcomes: Record<string, unknown>[] = [];
    for (const side of ["reference", "latchkey"] as const) {
      decide = () => ({ action: "link", userId: "no-such-user", profile: "preserve" });
      outcomes.push({ side, unknown: await flow(side, `lee-${side}`) });
      decide = () => {
        throw new Error("directory down");
      };
      outcomes.push({ side, thrown: await flow(side, `lee-${side}`) });
    }
    const [refUnknown, refThrown, lkUnknown, lkThrown] = outcomes.map((o) => Object.values(o)[1]);
    expect(lkUnknown).toEqual(refUnknown);
    expect(lkThrown).toEqual(refThrown);
    expect(refThrown).toMatchObject({ error: "SSO_USER_RESOLUTION_FAILED" });
  });
});

describe("sso: resolveUser with sessions in secondary storage", () => {
  let idp: TestIdP;
  let server: LiveServer;
  let pair: Pair;
  const storage = () => {
    const kept = new Map<string, string>();
    return {
      get: (key: string) => kept.get(key) ?? null,
      set: (key: string, value: string) => void kept.set(key, value),
      delete: (key: string) => void kept.delete(key),
    };
  };
  beforeAll(async () => {
    server = await listen();
    idp = await startIdP([`${server.origin}${BASE_PATH}/sso/callback/cached`]);
    for (const side of ["reference", "latchkey"])
      idp.accounts.set(`cached-${side}`, {
        email: `${side}@cached.example.com`,
        email_verified: true,
        name: side,
      });
    const session = { storeSessionInDatabase: true };
    const resolveUser = () => ({ action: "continue" }) as const;
    pair = await createPair({
      baseURL: server.origin,
      reference: {
        plugins: [referenceSSO({ resolveUser })],
        trustedOrigins: [idp.issuer],
        // The reference types optional storage methods (getAndDelete, increment) as required; it runs without them.
        secondaryStorage: storage() as never,
        session,
      },
      latchkey: {
        plugins: [sso({ resolveUser })],
        trustedOrigins: [idp.issuer],
        secondaryStorage: storage(),
        session,
      },
    });
    const owner = await signUp(pair.reference, {
      email: "owner@cached.example.com",
      password: "password-1234",
      name: "O",
    });
    await registerProvider(pair.latchkey, owner, { providerId: "cached", issuer: idp.issuer }, server.origin);
  });
  afterAll(async () => {
    pair.close();
    await server.close();
    await idp.close();
  });

  it("row 136: with storeSessionInDatabase the reference signs in (deferring its storage write); Latchkey refuses before spending the code", async () => {
    const outcomes: Record<string, string | null>[] = [];
    for (const side of ["reference", "latchkey"] as const) {
      server.use(pair[side]);
      const browser = new Browser(server.origin, (request) => fetch(request));
      idp.login(`cached-${side}`);
      const started = await browser.post(`${server.origin}${BASE_PATH}/sign-in/sso`, {
        providerId: "cached",
        callbackURL: "/dashboard",
        errorCallbackURL: "/oops",
      });
      const { url } = (await started.json()) as { url: string };
      const { location } = await browser.follow(url);
      const at = new URL(location, server.origin);
      outcomes.push({ path: at.pathname, error: at.searchParams.get("error") });
    }
    expect(outcomes).toEqual([
      { path: "/dashboard", error: null },
      { path: "/oops", error: "SSO_USER_RESOLUTION_REQUIRES_DATABASE_SESSIONS" },
    ]);
    expect(
      pair.db.prepare("select count(*) as n from user where email = ?").all(["latchkey@cached.example.com"]),
    ).toEqual([{ n: 0 }]);
  });
});
