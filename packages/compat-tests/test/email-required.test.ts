import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPair, jsonPost, url, type Pair } from "./support/instances.ts";
import { normalizeCaptured } from "./support/normalize.ts";
import { sendBoth, type BothResult } from "./support/send-both.ts";
import type { SqliteConnection } from "./support/sqlite.ts";
import { restoreTables, snapshotTables } from "./support/tables.ts";
import {
  createOutbox,
  mintJWT,
  NEW_EMAIL,
  pairWith,
  type Mail,
  type Outbox,
} from "./wire-diff/email-fixture.ts";
import { SESSION_COOKIE, signCookieValue } from "./wire-diff/fixture.ts";

// The modes the wire tables cannot seed (their fixture signs up and needs a session back):
// verification required, auto sign-in after verification, every confirmation mail on.
const strict = (outbox: Outbox) => ({
  emailAndPassword: {
    enabled: true,
    requireEmailVerification: true,
    sendResetPassword: outbox.sendResetPassword,
  },
  emailVerification: {
    sendVerificationEmail: outbox.sendVerificationEmail,
    sendOnSignIn: true,
    autoSignInAfterVerification: true,
  },
  user: {
    changeEmail: {
      enabled: true,
      updateEmailWithoutVerification: true,
      sendChangeEmailConfirmation: outbox.sendChangeEmailConfirmation,
    },
    deleteUser: { enabled: true, sendDeleteAccountVerification: outbox.sendDeleteAccountVerification },
  },
});

const USER = { name: "Strict User", email: "strict@example.com", password: "strict-password-1" };
const TOKEN = "StrictSessionToken00000000000001";
const COOKIE = `${SESSION_COOKIE}=${signCookieValue(TOKEN)}`;

/** A live, fresh session for the seeded user, written as the reference writes one. */
function insertSession(db: SqliteConnection): void {
  const { id } = db.prepare('SELECT "id" FROM "user" WHERE "email" = ?').all([USER.email])[0] as {
    id: string;
  };
  const now = new Date().toISOString();
  db.prepare(
    'INSERT INTO "session" ("id", "expiresAt", "token", "createdAt", "updatedAt", "ipAddress", "userAgent", "userId") VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  ).run([
    "StrictSessionId00000000000000001",
    new Date(Date.now() + 7 * 86_400_000).toISOString(),
    TOKEN,
    now,
    now,
    "",
    "",
    id,
  ]);
}

describe("email flows with verification required, side by side", () => {
  const outboxes = { reference: createOutbox(), latchkey: createOutbox() };
  let pair: Pair;
  const kinds = (side: "reference" | "latchkey"): Array<Mail["kind"]> =>
    outboxes[side].mails.map((m) => m.kind);

  /** Sends to both from the same state (after `prepare`), asserts the same answer and row changes. */
  async function same(request: Request, prepare?: (db: SqliteConnection) => void): Promise<BothResult> {
    for (const outbox of Object.values(outboxes)) outbox.mails.length = 0;
    const before = snapshotTables(pair.db);
    try {
      prepare?.(pair.db);
      const both = await sendBoth(pair, request);
      expect(normalizeCaptured(both.latchkey, both.known)).toEqual(
        normalizeCaptured(both.reference, both.known),
      );
      expect(both.writes.latchkey).toEqual(both.writes.reference);
      expect(kinds("latchkey")).toEqual(kinds("reference"));
      return both;
    } finally {
      restoreTables(pair.db, before);
    }
  }

  beforeAll(async () => {
    pair = await createPair(pairWith(strict, outboxes));
    const res = await pair.reference(jsonPost("/sign-up/email", USER));
    if (res.status !== 200) throw new Error(`seeding failed: ${res.status}`);
  });
  afterAll(() => pair.close());

  it("sign-up answers token null, opens no session and mails a link", async () => {
    const { reference, writes } = await same(
      jsonPost("/sign-up/email", { ...USER, email: "fresh@example.com" }),
    );
    expect(reference.body).toMatchObject({ token: null, user: { email: "fresh@example.com" } });
    expect(writes.reference).toEqual({ user: 1, session: 0, account: 1, verification: 0 });
    expect(kinds("reference")).toEqual(["verification"]);
  });

  it("sign-up with a taken email answers a synthetic user and writes nothing", async () => {
    const { reference, writes } = await same(jsonPost("/sign-up/email", { ...USER, name: "Mallory" }));
    expect(reference.status).toBe(200);
    expect(reference.body).toMatchObject({
      token: null,
      user: { name: "Mallory", email: USER.email, emailVerified: false },
    });
    expect(writes.reference).toEqual({ user: 0, session: 0, account: 0, verification: 0 });
  });

  it("sign-in of the unverified user: 403 EMAIL_NOT_VERIFIED and a fresh link (sendOnSignIn); a wrong password mails nothing", async () => {
    const { reference } = await same(
      jsonPost("/sign-in/email", { email: USER.email, password: USER.password }),
    );
    expect(reference.status).toBe(403);
    expect(kinds("reference")).toEqual(["verification"]);
    const wrong = await same(jsonPost("/sign-in/email", { email: USER.email, password: "wrong-password-1" }));
    expect(wrong.reference.status).toBe(401);
    expect(kinds("reference")).toEqual([]);
  });

  it("verify-email signs the user in (autoSignInAfterVerification), with and without a callbackURL", async () => {
    const token = mintJWT({ email: USER.email });
    const plain = await same(new Request(url(`/verify-email?token=${token}`)));
    expect(plain.reference.body).toEqual({ status: true, user: null });
    expect(plain.writes.reference.session).toBe(1);
    expect(plain.reference.setCookie.map((c) => c.name)).toEqual([SESSION_COOKIE]);
    const redirect = await same(new Request(url(`/verify-email?token=${token}&callbackURL=/home`)));
    expect(redirect.reference.headers.location).toBe("/home");
  });

  it("verify-email with the user's own session re-issues that session's cookie", async () => {
    const token = mintJWT({ email: USER.email });
    const { reference, writes } = await same(
      new Request(url(`/verify-email?token=${token}`), { headers: { cookie: COOKIE } }),
      insertSession,
    );
    expect(writes.reference.session).toBe(0);
    expect(reference.setCookie.map((c) => c.name)).toEqual([SESSION_COOKIE]);
  });

  it("change-email of an unverified user applies at once (updateEmailWithoutVerification) and mails the new address", async () => {
    const { reference } = await same(
      jsonPost("/change-email", { newEmail: NEW_EMAIL }, { cookie: COOKIE }),
      insertSession,
    );
    expect(reference.body).toEqual({ status: true });
    expect(outboxes.reference.mails.map((m) => m.to)).toEqual([NEW_EMAIL]);
  });

  it("change-email of a verified user mails a confirmation to the current address", async () => {
    const verified = (db: SqliteConnection) => {
      insertSession(db);
      db.prepare('UPDATE "user" SET "emailVerified" = 1 WHERE "email" = ?').run([USER.email]);
    };
    await same(
      jsonPost("/change-email", { newEmail: NEW_EMAIL, callbackURL: "/s" }, { cookie: COOKIE }),
      verified,
    );
    expect(outboxes.latchkey.mails).toMatchObject([
      { kind: "change-email", to: USER.email, newEmail: NEW_EMAIL },
    ]);
  });

  it("delete-user mails a confirmation link and stores its token", async () => {
    const { reference, writes } = await same(
      jsonPost("/delete-user", { callbackURL: "/bye" }, { cookie: COOKIE }),
      insertSession,
    );
    expect(reference.body).toEqual({ success: true, message: "Verification email sent" });
    expect(writes.reference.verification).toBe(1);
    const [ours, theirs] = [outboxes.latchkey.mails[0]!, outboxes.reference.mails[0]!];
    expect(ours.url.replace(ours.token, "<t>")).toBe(theirs.url.replace(theirs.token, "<t>"));
  });
});
