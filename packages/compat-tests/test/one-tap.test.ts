import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { oneTap as referenceOneTap } from "better-auth/plugins";
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from "jose";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { oneTap } from "@latchkey/one-tap";
import { capture, type Captured } from "./support/capture.ts";
import { signUp } from "./support/flows.ts";
import { createPair, jsonPost, type Pair } from "./support/instances.ts";
import { normalizeCaptured, normalizeJson } from "./support/normalize.ts";
import { restoreTables, snapshotTables } from "./support/tables.ts";

/**
 * `@latchkey/one-tap` beside the reference's `oneTap()` (better-auth/plugins) on one database.
 * The reference fetches Google's key set from a URL it does not let anyone change, so this
 * file intercepts `fetch` for that one URL and serves a local key set (the same server
 * Latchkey's `jwksURL` points at); every other request goes out untouched.
 */
const GOOGLE_JWKS = "https://www.googleapis.com/oauth2/v3/certs";
const GOOGLE_ISS = "https://accounts.google.com";
const CLIENT_ID = "one-tap-client.apps.googleusercontent.com";
const google = { clientId: CLIENT_ID, clientSecret: "unused-secret" };

let jwksServer: Server;
let jwksURL: string;
let privateKey: CryptoKey;
let otherKey: CryptoKey;
/** How often the reference asked for Google's key set (through the interception). */
let googleFetches = 0;
const realFetch = globalThis.fetch;

beforeAll(async () => {
  const pair = await generateKeyPair("RS256");
  privateKey = pair.privateKey;
  otherKey = (await generateKeyPair("RS256")).privateKey;
  const jwk = { ...(await exportJWK(pair.publicKey)), kid: "google-like", alg: "RS256", use: "sig" };
  jwksServer = createServer((_req, res) => {
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => jwksServer.listen(0, "127.0.0.1", resolve));
  jwksURL = `http://127.0.0.1:${(jwksServer.address() as AddressInfo).port}/oauth2/v3/certs`;
  vi.spyOn(globalThis, "fetch").mockImplementation((input, init) => {
    const target = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    if (target !== GOOGLE_JWKS) return realFetch(input, init);
    googleFetches++;
    return realFetch(jwksURL, { method: "GET" });
  });
});
afterAll(async () => {
  vi.restoreAllMocks();
  await new Promise<void>((resolve) => jwksServer.close(() => resolve()));
});

const now = () => Math.floor(Date.now() / 1000);
const ada = {
  sub: "google-sub-ada",
  email: "Ada@Example.com",
  email_verified: true,
  name: "Ada",
  picture: "https://img.example/ada.png",
};

/** A Google-style ID token: RS256, Google's issuer, our client id, valid for 5 minutes. */
function idToken(claims: Record<string, unknown>, key: CryptoKey = privateKey): Promise<string> {
  return new SignJWT({ iss: GOOGLE_ISS, aud: CLIENT_ID, iat: now(), exp: now() + 300, ...claims })
    .setProtectedHeader({ alg: "RS256", kid: "google-like", typ: "JWT" })
    .sign(key);
}

type Row = Record<string, unknown>;
const ROW_OMIT = new Set(["id", "userId", "createdAt", "updatedAt"]);
/** A stored row without the values each side mints (ids, timestamps). */
const stable = (row: Row | undefined): Row | undefined =>
  row && Object.fromEntries(Object.entries(row).filter(([k]) => !ROW_OMIT.has(k)));

interface Outcome {
  response: Captured;
  user: Row | undefined;
  accounts: Array<Row | undefined>;
  sessions: number;
}

/**
 * POSTs `/one-tap/callback` with `body` to each side from the same stored rows; answers the
 * response and the user, account and session rows for `email` as that side left them.
 */
async function bothOneTap(pair: Pair, body: Record<string, unknown>, email = "ada@example.com") {
  const before = snapshotTables(pair.db);
  const run = async (side: "reference" | "latchkey"): Promise<Outcome> => {
    const response = await capture(await pair[side](jsonPost("/one-tap/callback", body)));
    const user = pair.db.prepare(`SELECT * FROM "user" WHERE "email" = ?`).all([email])[0] as Row | undefined;
    const accounts = user
      ? (pair.db
          .prepare(`SELECT * FROM "account" WHERE "userId" = ? ORDER BY "providerId"`)
          .all([user.id]) as Row[])
      : [];
    const sessions = user
      ? (pair.db.prepare(`SELECT * FROM "session" WHERE "userId" = ?`).all([user.id]) as Row[]).length
      : 0;
    restoreTables(pair.db, before);
    return { response, user: stable(user), accounts: accounts.map(stable), sessions };
  };
  const reference = await run("reference");
  const latchkey = await run("latchkey");
  const known = new Set(
    Object.values(before)
      .flat()
      .flatMap((row) => Object.values(row).filter((v): v is string => typeof v === "string")),
  );
  return {
    reference: { ...reference, response: normalizeCaptured(reference.response, known) },
    latchkey: { ...latchkey, response: normalizeCaptured(latchkey.response, known) },
  };
}

/** Empties the core tables between scenarios. */
function clear(pair: Pair): void {
  for (const table of ["session", "account", "verification", "user"])
    pair.db.prepare(`DELETE FROM "${table}"`).run([]);
}

describe("one-tap: POST /one-tap/callback side by side", () => {
  let pair: Pair;
  beforeAll(async () => {
    pair = await createPair({
      reference: { socialProviders: { google }, plugins: [referenceOneTap()] },
      latchkey: { socialProviders: { google }, plugins: [oneTap({ jwksURL })] },
    });
  });
  afterAll(() => pair.close());

  it("a new Google account: the same {token, user}, session cookie, user row and google account row", async () => {
    const token = await idToken(ada);
    const fetchesBefore = googleFetches;
    const both = await bothOneTap(pair, { idToken: token });
    expect(googleFetches).toBeGreaterThan(fetchesBefore);
    expect(both.reference.response.status).toBe(200);
    expect(both.reference.response.body).toEqual({
      token: "<new-id32>",
      user: {
        id: "<new-id32>",
        email: "ada@example.com",
        emailVerified: true,
        name: "Ada",
        image: "https://img.example/ada.png",
        createdAt: "<new-iso-date>",
        updatedAt: "<new-iso-date>",
      },
    });
    expect(both.reference.response.setCookie.map((c) => c.name)).toEqual(["better-auth.session_token"]);
    expect(both.reference.accounts).toEqual([
      expect.objectContaining({
        providerId: "google",
        accountId: "google-sub-ada",
        idToken: token,
        scope: "openid,profile,email",
        accessToken: null,
        refreshToken: null,
        password: null,
      }),
    ]);
    expect(both.reference.sessions).toBe(1);
    expect(both.latchkey).toEqual(both.reference);
  });

  it("a returning Google account (signed up on the reference): same user, no new rows, on both", async () => {
    const first = await pair.reference(jsonPost("/one-tap/callback", { idToken: await idToken(ada) }));
    expect(first.status).toBe(200);
    const both = await bothOneTap(pair, { idToken: await idToken(ada) });
    expect(both.reference.response.status).toBe(200);
    expect(both.reference.accounts).toHaveLength(1);
    expect(both.reference.sessions).toBe(2);
    // Each side stores the token it was given (the same one here) on the existing account.
    expect(both.latchkey).toEqual(both.reference);
    clear(pair);
  });

  it("a verified local user with that email: the Google account is linked to it on both", async () => {
    const { userId } = await signUp(pair.reference, {
      name: "Ada L",
      email: "ada@example.com",
      password: "password-1234",
    });
    pair.db.prepare(`UPDATE "user" SET "emailVerified" = 1 WHERE "id" = ?`).run([userId]);
    const both = await bothOneTap(pair, { idToken: await idToken(ada) });
    expect(both.reference.response.status).toBe(200);
    expect((both.reference.response.body as { user: { id: string } }).user.id).toBe(userId);
    expect(both.reference.accounts.map((a) => a?.providerId)).toEqual(["credential", "google"]);
    expect(both.latchkey).toEqual(both.reference);
    clear(pair);
  });

  const refusals: Array<[string, () => Promise<Record<string, unknown>>, unknown]> = [
    [
      "a verified token without email: 400 'Email not available in token'",
      async () => ({ idToken: await idToken({ ...ada, email: undefined }) }),
      { message: "Email not available in token" },
    ],
    [
      "a token signed by another key: 400 'invalid id token'",
      async () => ({ idToken: await idToken(ada, otherKey) }),
      { message: "invalid id token" },
    ],
    [
      "another audience: 400 'invalid id token'",
      async () => ({ idToken: await idToken({ ...ada, aud: "someone-else" }) }),
      { message: "invalid id token" },
    ],
    [
      "another issuer: 400 'invalid id token'",
      async () => ({ idToken: await idToken({ ...ada, iss: "https://accounts.google.com.evil.example" }) }),
      { message: "invalid id token" },
    ],
    [
      "an expired token: 400 'invalid id token'",
      async () => ({ idToken: await idToken({ ...ada, iat: now() - 600, exp: now() - 60 }) }),
      { message: "invalid id token" },
    ],
    [
      "issued more than an hour ago: 400 'invalid id token'",
      async () => ({ idToken: await idToken({ ...ada, iat: now() - 7200, exp: now() + 300 }) }),
      { message: "invalid id token" },
    ],
    [
      "no iat (the age ceiling needs it): 400 'invalid id token'",
      async () => ({ idToken: await idToken({ ...ada, iat: undefined }) }),
      { message: "invalid id token" },
    ],
    [
      "no sub: 400 'invalid id token'",
      async () => ({ idToken: await idToken({ ...ada, sub: undefined }) }),
      { message: "invalid id token" },
    ],
    [
      "not a JWT: 400 'invalid id token'",
      () => Promise.resolve({ idToken: "not.a.jwt" }),
      { message: "invalid id token" },
    ],
  ];
  for (const [name, body, expected] of refusals) {
    it(name, async () => {
      const both = await bothOneTap(pair, await body());
      expect(both.reference.response.status).toBe(400);
      expect(both.reference.response.body).toEqual(expected);
      expect(both.reference.user).toBeUndefined();
      expect(both.latchkey).toEqual(both.reference);
    });
  }

  it("no idToken: both 400 VALIDATION_ERROR with the same message", async () => {
    const both = await bothOneTap(pair, {});
    expect(both.reference.response.status).toBe(400);
    expect(both.reference.response.body).toEqual({
      code: "VALIDATION_ERROR",
      message: "[body.idToken] Invalid input: expected string, received undefined",
    });
    expect(both.latchkey).toEqual(both.reference);
  });
});

describe("one-tap: no client id anywhere", () => {
  let pair: Pair;
  beforeAll(async () => {
    pair = await createPair({
      reference: { plugins: [referenceOneTap()] },
      latchkey: { plugins: [oneTap({ jwksURL })] },
    });
  });
  afterAll(() => pair.close());

  it("both answer 400 with the reference's message, before reading the token", async () => {
    const both = await bothOneTap(pair, { idToken: await idToken(ada) });
    expect(both.reference.response.status).toBe(400);
    expect(both.reference.response.body).toEqual({
      message:
        "Google client ID is required for One Tap. Set it on the oneTap plugin (clientId) or on socialProviders.google.",
    });
    expect(both.latchkey).toEqual(both.reference);
  });
});

describe("one-tap: divergences (DIVERGENCES.md)", () => {
  let pair: Pair;
  beforeAll(async () => {
    pair = await createPair({
      reference: { socialProviders: { google }, plugins: [referenceOneTap()] },
      latchkey: { socialProviders: { google }, plugins: [oneTap({ jwksURL })] },
    });
  });
  afterAll(() => pair.close());

  it("an unverified local user with that email: both 401; the reference says 'account not linked', Latchkey 'unable to link account' (DIVERGENCES.md row 46)", async () => {
    await signUp(pair.reference, { name: "Ada L", email: "ada@example.com", password: "password-1234" });
    const both = await bothOneTap(pair, { idToken: await idToken(ada) });
    expect(both.reference.response.status).toBe(401);
    expect(both.reference.response.body).toEqual({ message: "account not linked" });
    expect(both.latchkey.response.body).toEqual({ message: "unable to link account" });
    expect({ ...both.latchkey, response: { ...both.latchkey.response, body: null } }).toEqual({
      ...both.reference,
      response: { ...both.reference.response, body: null },
    });
    clear(pair);
  });

  it("an `azp` naming another client, or no `exp`: the reference signs in, Latchkey answers 400 'invalid id token' (DIVERGENCES.md row 47)", async () => {
    for (const claims of [
      { ...ada, azp: "another-client" },
      { ...ada, exp: undefined },
    ]) {
      const both = await bothOneTap(pair, { idToken: await idToken(claims) });
      expect(both.reference.response.status, JSON.stringify(claims)).toBe(200);
      expect(both.reference.accounts).toHaveLength(1);
      expect(both.latchkey.response.status).toBe(400);
      expect(both.latchkey.response.body).toEqual({ message: "invalid id token" });
      expect(both.latchkey.user).toBeUndefined();
    }
  });

  it("the same token and claims without azp/with exp sign in on both (control)", async () => {
    const both = await bothOneTap(pair, { idToken: await idToken({ ...ada, azp: CLIENT_ID }) });
    expect(both.reference.response.status).toBe(200);
    expect(normalizeJson(both.latchkey.response.body, new Set())).toEqual(
      normalizeJson(both.reference.response.body, new Set()),
    );
  });
});
