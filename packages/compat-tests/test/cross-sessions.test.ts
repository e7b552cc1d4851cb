import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cookiePair, DONT_REMEMBER_COOKIE, responseCookies, SESSION_COOKIE } from "./support/cookies.ts";
import { getSession, signIn, signOut, signUp } from "./support/flows.ts";
import { createPair, jsonPost, type Handler, type Pair } from "./support/instances.ts";

let pair: Pair;
let sides: Record<"reference" | "latchkey", Handler>;
beforeAll(async () => {
  pair = await createPair();
  sides = { reference: pair.reference, latchkey: pair.latchkey };
});
afterAll(() => pair.close());

let serial = 0;
const newUser = (): { name: string; email: string; password: string } => ({
  name: `Person ${++serial}`,
  email: `person${serial}@example.com`,
  password: `pass-word-${serial}-ünï`,
});
const sessionRow = (token: string): unknown =>
  pair.db.prepare('SELECT * FROM "session" WHERE "token" = ?').all([token])[0];

const NAMES = { reference: "reference", latchkey: "Latchkey" } as const;

// Each scenario runs in both directions: written by one implementation, read by the other.
for (const [fromKey, toKey] of [
  ["reference", "latchkey"],
  ["latchkey", "reference"],
] as const) {
  const [from, to] = [NAMES[fromKey], NAMES[toKey]];
  describe(`${from} → ${to}`, () => {
    it(`a user signed up on ${from} signs in on ${to} with the password`, async () => {
      const user = newUser();
      const created = await signUp(sides[fromKey], user);
      const signedIn = await signIn(sides[toKey], {
        email: user.email.toUpperCase(),
        password: user.password,
      });
      expect(signedIn.userId).toBe(created.userId);
      expect(signedIn.token).not.toBe(created.token);
      expect(sessionRow(signedIn.token)).toMatchObject({ userId: created.userId, token: signedIn.token });
    });

    it(`${to} refuses a wrong password for a user ${from} created`, async () => {
      const user = newUser();
      await signUp(sides[fromKey], user);
      const res = await sides[toKey](
        jsonPost("/sign-in/email", { email: user.email, password: `${user.password}x` }),
      );
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({
        code: "INVALID_EMAIL_OR_PASSWORD",
        message: "Invalid email or password",
      });
    });

    it(`${to} refuses to sign up an email ${from} already holds`, async () => {
      const user = newUser();
      await signUp(sides[fromKey], user);
      const res = await sides[toKey](
        jsonPost("/sign-up/email", { ...user, email: user.email.toUpperCase() }),
      );
      expect(res.status).toBe(422);
      expect(await res.json()).toEqual({
        code: "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL",
        message: "User already exists. Use another email.",
      });
    });

    it(`a session cookie issued by ${from} is accepted by ${to}'s /get-session`, async () => {
      const user = newUser();
      const { cookie, userId, token } = await signUp(sides[fromKey], user);
      const own = await getSession(sides[fromKey], { cookie });
      const other = await getSession(sides[toKey], { cookie });
      expect(other?.user.id).toBe(userId);
      expect(other?.session.token).toBe(token);
      expect(other?.session.id).toBe(own?.session.id);
      // Same stored row, so the whole body matches, timestamps included.
      expect(other).toEqual(own);
    });

    it(`a rememberMe: false session from ${from} keeps its one-day expiry on ${to}`, async () => {
      const user = newUser();
      await signUp(sides[fromKey], user);
      const signedIn = await signIn(sides[fromKey], { ...user, rememberMe: false });
      const cookies = responseCookies(signedIn.response);
      expect(cookies.find((c) => c.name === SESSION_COOKIE)?.attributes["max-age"]).toBeUndefined();
      const cookie = `${signedIn.cookie}; ${cookiePair(signedIn.response, DONT_REMEMBER_COOKIE)}`;
      const other = await getSession(sides[toKey], { cookie });
      expect(other?.session.token).toBe(signedIn.token);
      const hoursLeft = (Date.parse(other?.session.expiresAt ?? "") - Date.now()) / 3_600_000;
      expect(hoursLeft).toBeGreaterThan(23);
      expect(hoursLeft).toBeLessThanOrEqual(24);
    });

    it(`sign-out on ${to} ends a session ${from} issued, for both`, async () => {
      const user = newUser();
      const { cookie, token } = await signUp(sides[fromKey], user);
      const out = await signOut(sides[toKey], cookie);
      expect(out.status).toBe(200);
      expect(await out.json()).toEqual({ success: true });
      expect(responseCookies(out).find((c) => c.name === SESSION_COOKIE)).toMatchObject({
        value: "",
        attributes: { "max-age": "0" },
      });
      expect(sessionRow(token)).toBeUndefined();
      expect(await getSession(sides[fromKey], { cookie })).toBeNull();
      expect(await getSession(sides[toKey], { cookie })).toBeNull();
    });
  });
}

/** The signed `token.sig` value a session cookie pair (`name=value`) carries. */
const signedValue = (cookie: string): string => decodeURIComponent(cookie.slice(cookie.indexOf("=") + 1));

describe("Bearer without a plugin (spec: Bearer reading is core, signed values only)", () => {
  it("the signed value from a reference sign-in works on Latchkey's /get-session; a bare token on neither", async () => {
    const user = newUser();
    await signUp(pair.reference, user);
    const { token, userId, cookie } = await signIn(pair.reference, user);
    const signed = `Bearer ${signedValue(cookie)}`;
    const byBearer = await getSession(pair.latchkey, { authorization: signed });
    expect(byBearer?.user.id).toBe(userId);
    expect(byBearer?.session.token).toBe(token);
    expect(byBearer).toEqual(await getSession(pair.reference, { cookie }));
    // The reference reads Bearer only through its bearer() plugin, which this config lacks.
    expect(await getSession(pair.reference, { authorization: signed })).toBeNull();
    // A bare token (as response bodies carry it) is no credential on either side without bearer().
    expect(await getSession(pair.latchkey, { authorization: `Bearer ${token}` })).toBeNull();
    expect(await getSession(pair.reference, { authorization: `Bearer ${token}` })).toBeNull();
  });

  it("a Bearer value stops working on Latchkey once the reference signs the session out", async () => {
    const user = newUser();
    const { cookie } = await signUp(pair.reference, user);
    const signed = `Bearer ${signedValue(cookie)}`;
    expect(await getSession(pair.latchkey, { authorization: signed })).not.toBeNull();
    await signOut(pair.reference, cookie);
    expect(await getSession(pair.latchkey, { authorization: signed })).toBeNull();
  });

  it("a Bearer token that is not a session token gets null on Latchkey", async () => {
    expect(
      await getSession(pair.latchkey, { authorization: "Bearer NoSuchSessionToken0123456789abcd" }),
    ).toBeNull();
  });
});
