import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { cookiePair, SESSION_COOKIE } from "./support/cookies.ts";
import { createPair, jsonPost, url, type Handler, type Pair } from "./support/instances.ts";
import { restoreTables, snapshotTables, type TableSnapshot } from "./support/tables.ts";
import { createOutbox, NEW_EMAIL, pairWith, type Mail, type Outbox } from "./wire-diff/email-fixture.ts";
import { seedFixture, type Fixture } from "./wire-diff/fixture.ts";

type Side = "reference" | "latchkey";
const DIRECTIONS: Array<[Side, Side]> = [
  ["reference", "latchkey"],
  ["latchkey", "reference"],
];

/** Every email flow on, the delete-user confirmation mail included. */
const allFlows = (outbox: Outbox) => ({
  emailAndPassword: { enabled: true, sendResetPassword: outbox.sendResetPassword },
  emailVerification: { sendVerificationEmail: outbox.sendVerificationEmail },
  user: {
    changeEmail: { enabled: true },
    deleteUser: { enabled: true, sendDeleteAccountVerification: outbox.sendDeleteAccountVerification },
  },
});

const decode = (jwt: string) =>
  jwt
    .split(".")
    .slice(0, 2)
    .map((part) => JSON.parse(Buffer.from(part, "base64url").toString("utf8")) as Record<string, unknown>);

describe("email tokens cross over between the implementations (one database, one secret)", () => {
  const outboxes = { reference: createOutbox(), latchkey: createOutbox() };
  let pair: Pair;
  let fixture: Fixture;
  let seeded: TableSnapshot;
  const side = (name: Side): Handler => pair[name];
  const lastMail = (name: Side, kind: Mail["kind"]): Mail => {
    const mail = outboxes[name].mails.filter((m) => m.kind === kind).at(-1);
    if (!mail) throw new Error(`${name} sent no ${kind} mail`);
    return mail;
  };
  const seedRow = () =>
    pair.db.prepare('SELECT "email", "emailVerified" FROM "user" WHERE "name" = ?').all(["Seed User"])[0] as {
      email: string;
      emailVerified: number;
    };

  beforeAll(async () => {
    pair = await createPair(pairWith(allFlows, outboxes));
    fixture = await seedFixture(pair);
    seeded = snapshotTables(pair.db);
  });
  afterEach(() => restoreTables(pair.db, seeded));
  afterAll(() => pair.close());

  it("both mail the same verification link: same URL shape, header and claims", async () => {
    for (const name of ["reference", "latchkey"] as const) {
      await side(name)(jsonPost("/send-verification-email", { email: fixture.email, callbackURL: "/v?x=1" }));
    }
    const [ref, ours] = [lastMail("reference", "verification"), lastMail("latchkey", "verification")];
    expect(ours.url.replace(ours.token, "<t>")).toBe(ref.url.replace(ref.token, "<t>"));
    expect(ours.url).toBe(`${url("/verify-email")}?token=${ours.token}&callbackURL=%2Fv%3Fx%3D1`);
    const [refHeader, refClaims] = decode(ref.token);
    const [ourHeader, ourClaims] = decode(ours.token);
    expect(ourHeader).toEqual(refHeader);
    expect(Object.keys(ourClaims!)).toEqual(Object.keys(refClaims!));
    expect(ourClaims!.email).toBe(refClaims!.email);
    expect(Number(ourClaims!.exp) - Number(ourClaims!.iat)).toBe(
      Number(refClaims!.exp) - Number(refClaims!.iat),
    );
  });

  for (const [from, to] of DIRECTIONS) {
    it(`a verification token mailed by the ${from} verifies the address on the ${to}`, async () => {
      await side(from)(jsonPost("/send-verification-email", { email: fixture.email }));
      const res = await side(to)(
        new Request(url(`/verify-email?token=${lastMail(from, "verification").token}`)),
      );
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ status: true, user: null });
      expect(seedRow().emailVerified).toBe(1);
    });

    it(`a change-email token mailed by the ${from} applies the change on the ${to}`, async () => {
      const started = await side(from)(
        jsonPost("/change-email", { newEmail: NEW_EMAIL }, { cookie: fixture.cookie }),
      );
      expect(await started.json()).toEqual({ status: true });
      const mail = lastMail(from, "verification");
      expect(mail.to).toBe(NEW_EMAIL);
      const res = await side(to)(
        new Request(url(`/verify-email?token=${mail.token}`), { headers: { cookie: fixture.cookie } }),
      );
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({
        status: true,
        user: { email: NEW_EMAIL, emailVerified: true },
      });
      expect(seedRow()).toEqual({ email: NEW_EMAIL, emailVerified: 1 });
    });

    it(`a reset token stored by the ${from} is redeemed once on the ${to}`, async () => {
      const requested = await side(from)(
        jsonPost("/request-password-reset", { email: fixture.email, redirectTo: "/reset" }),
      );
      expect(requested.status).toBe(200);
      const { token } = lastMail(from, "reset");
      const link = await side(to)(new Request(url(`/reset-password/${token}?callbackURL=/reset`)));
      expect(link.headers.get("location")).toBe(`http://localhost:3000/reset?token=${token}`);
      const reset = await side(to)(
        jsonPost("/reset-password", { token, newPassword: "a brand new password" }),
      );
      expect(await reset.json()).toEqual({ status: true });
      const replay = await side(from)(
        jsonPost("/reset-password", { token, newPassword: "yet another password" }),
      );
      expect(replay.status).toBe(400);
      const signIn = await side(from)(
        jsonPost("/sign-in/email", { email: fixture.email, password: "a brand new password" }),
      );
      expect(signIn.status).toBe(200);
    });

    it(`a delete-account token stored by the ${from} deletes the user on the ${to}`, async () => {
      const asked = await side(from)(
        jsonPost("/delete-user", { callbackURL: "/bye" }, { cookie: fixture.cookie }),
      );
      expect(await asked.json()).toEqual({ success: true, message: "Verification email sent" });
      const mail = lastMail(from, "delete");
      expect(mail.token).toMatch(/^[0-9a-z]{32}$/);
      const res = await side(to)(
        new Request(url(`/delete-user/callback?token=${mail.token}`), {
          headers: { cookie: fixture.cookie },
        }),
      );
      expect(await res.json()).toEqual({ success: true, message: "User deleted" });
      expect(pair.db.prepare('SELECT COUNT(*) AS n FROM "user"').all([])[0]).toEqual({ n: 0 });
    });
  }

  it("20 concurrent redemptions on Latchkey (SQLite) of a token the reference stored: exactly one succeeds", async () => {
    await pair.reference(jsonPost("/request-password-reset", { email: fixture.email }));
    const { token } = lastMail("reference", "reset");
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        pair.latchkey(jsonPost("/reset-password", { token, newPassword: `concurrent password ${i}` })),
      ),
    );
    expect(responses.map((r) => r.status).sort()).toEqual([200, ...Array<number>(19).fill(400)]);
    const winner = responses.findIndex((r) => r.status === 200);
    const signIn = await pair.reference(
      jsonPost("/sign-in/email", { email: fixture.email, password: `concurrent password ${winner}` }),
    );
    expect(signIn.status).toBe(200);
    expect(cookiePair(signIn, SESSION_COOKIE)).toContain(SESSION_COOKIE);
  });
});
