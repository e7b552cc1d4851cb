import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Captured } from "./support/capture.ts";
import { createPair, jsonPost, url, type Pair } from "./support/instances.ts";
import { sendBoth } from "./support/send-both.ts";
import { restoreTables, snapshotTables } from "./support/tables.ts";
import {
  DELETE_TOKEN,
  emailFlowOptions,
  insertOtherUser,
  insertVerification,
  mintJWT,
  NEW_EMAIL,
  pairWith,
  seedUserId,
} from "./wire-diff/email-fixture.ts";
import {
  DONT_REMEMBER_COOKIE,
  SESSION_COOKIE,
  SESSION_DATA_COOKIE,
  seedFixture,
  type Fixture,
} from "./wire-diff/fixture.ts";

// Deliberate differences in the email flows (DIVERGENCES.md, rows 18-22). Each test asserts
// both sides' own behaviour, so a change on either side makes it fail.

const get = (path: string, headers: Record<string, string> = {}): Request =>
  new Request(url(path), { headers });
const isEmpty500 = (c: Captured): boolean => c.status === 500 && c.bodyKind === "empty";

describe("email flows: divergences from the reference", () => {
  let pair: Pair;
  let fixture: Fixture;
  beforeAll(async () => {
    pair = await createPair(pairWith(emailFlowOptions));
    fixture = await seedFixture(pair);
  });
  afterAll(() => pair.close());

  it("verify-email with a token signed by the secret but without an email claim: the reference 500, Latchkey 401 INVALID_TOKEN", async () => {
    const token = mintJWT({ session: { id: "x" }, user: { id: "y" } });
    const plain = await sendBoth(pair, get(`/verify-email?token=${token}`));
    expect(isEmpty500(plain.reference)).toBe(true);
    expect(plain.latchkey.status).toBe(401);
    expect(plain.latchkey.body).toEqual({ message: "Invalid token", code: "INVALID_TOKEN" });
    const redirect = await sendBoth(pair, get(`/verify-email?token=${token}&callbackURL=/cb`));
    expect(isEmpty500(redirect.reference)).toBe(true);
    expect(redirect.latchkey.status).toBe(302);
    expect(redirect.latchkey.headers.location).toBe("/cb?error=INVALID_TOKEN");
  });

  it("verify-email error with a callbackURL that cannot carry a query (origin checks off): the reference 500, Latchkey 403", async () => {
    const { reference, latchkey } = await sendBoth(
      pair,
      get("/verify-email?token=bad&callbackURL=not-a-url"),
    );
    expect(isEmpty500(reference)).toBe(true);
    expect(latchkey.status).toBe(403);
    expect(latchkey.body).toEqual({ message: "Invalid callbackURL", code: "INVALID_CALLBACK_URL" });
    // The reset link resolves its callbackURL against the base URL: only a broken one fails.
    const reset = await sendBoth(pair, get(`/reset-password/x?callbackURL=${encodeURIComponent("http://")}`));
    expect(isEmpty500(reset.reference)).toBe(true);
    expect(reset.latchkey.status).toBe(403);
    expect(reset.latchkey.body).toEqual({ message: "Invalid callbackURL", code: "INVALID_CALLBACK_URL" });
  });

  it("change-email link followed after the new address was taken: the reference 500 (unique index), Latchkey 422", async () => {
    const token = mintJWT({
      email: fixture.email,
      updateTo: NEW_EMAIL,
      requestType: "change-email-verification",
    });
    const before = snapshotTables(pair.db);
    try {
      insertOtherUser(pair.db, NEW_EMAIL);
      const { reference, latchkey, writes } = await sendBoth(pair, get(`/verify-email?token=${token}`));
      expect(isEmpty500(reference)).toBe(true);
      expect(latchkey.status).toBe(422);
      expect(latchkey.body).toEqual({
        message: "User already exists. Use another email.",
        code: "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL",
      });
      // The reference opened a session before failing; Latchkey checks first and writes nothing.
      expect(writes.reference.session).toBe(1);
      expect(writes.latchkey).toEqual({ user: 0, session: 0, account: 0, verification: 0 });
    } finally {
      restoreTables(pair.db, before);
    }
  });

  it("delete-user with the mailed token in the body: the reference deletes but leaves the cookies, Latchkey expires them", async () => {
    const before = snapshotTables(pair.db);
    try {
      insertVerification(pair.db, `delete-account-${DELETE_TOKEN}`, seedUserId(pair.db, fixture));
      const request = jsonPost("/delete-user", { token: DELETE_TOKEN }, { cookie: fixture.cookie });
      const { reference, latchkey, writes } = await sendBoth(pair, request);
      expect(reference.body).toEqual({ success: true, message: "User deleted" });
      expect(latchkey.body).toEqual(reference.body);
      expect(writes.latchkey).toEqual(writes.reference);
      expect(writes.reference.user).toBe(-1);
      expect(reference.setCookie).toEqual([]);
      expect(latchkey.setCookie.map((c) => [c.name, c.attributes["max-age"]]).sort()).toEqual(
        [DONT_REMEMBER_COOKIE, SESSION_DATA_COOKIE, SESSION_COOKIE].sort().map((name) => [name, "0"]),
      );
    } finally {
      restoreTables(pair.db, before);
    }
  });

  it("request-password-reset: Latchkey answers known and unknown addresses after the same 500 ms floor; the reference answers unknown ones at once", async () => {
    const time = async (handler: Pair["reference"], email: string): Promise<number> => {
      const start = Date.now();
      const res = await handler(jsonPost("/request-password-reset", { email }));
      expect(res.status).toBe(200);
      return Date.now() - start;
    };
    const before = snapshotTables(pair.db);
    try {
      expect(await time(pair.reference, "nobody@example.com")).toBeLessThan(300);
      expect(await time(pair.latchkey, "nobody@example.com")).toBeGreaterThanOrEqual(490);
      expect(await time(pair.latchkey, fixture.email)).toBeGreaterThanOrEqual(490);
    } finally {
      restoreTables(pair.db, before);
    }
  });
});
