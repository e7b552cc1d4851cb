import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { haveIBeenPwned as referenceHaveIBeenPwned } from "better-auth/plugins";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { haveIBeenPwned } from "@latchkey/have-i-been-pwned";
import { statusAndBody } from "./support/capture.ts";
import { signUp } from "./support/flows.ts";
import { createPair, jsonPost, type Pair } from "./support/instances.ts";
import { countRows } from "./support/tables.ts";
import { createOutbox } from "./wire-diff/email-fixture.ts";

/**
 * `@latchkey/have-i-been-pwned` beside the reference's `haveIBeenPwned()` on one database. The
 * reference asks api.pwnedpasswords.com and cannot be pointed elsewhere, so `fetch` is
 * intercepted for that host only and sent to a local range stub, the one Latchkey's `rangeURL`
 * names; the stub records what each side asked.
 */
const REFERENCE_RANGE = "https://api.pwnedpasswords.com/range/";
const sha1 = (text: string): string => createHash("sha1").update(text, "utf8").digest("hex").toUpperCase();
const BREACHED = "password1234";
const CLEAN = "a perfectly unique passphrase 8c1f";

let server: Server;
let stubBase: string;
let asked: Array<{ path: string; addPadding: string | undefined }> = [];
let failure: { status: number; body: string } | null = null;
const realFetch = globalThis.fetch;

beforeAll(async () => {
  server = createServer((req, res) => {
    asked.push({ path: req.url ?? "", addPadding: req.headers["add-padding"] as string | undefined });
    const prefix = (req.url ?? "").split("/").pop() ?? "";
    const hash = sha1(BREACHED);
    const lines = ["0018A45C4D1DEF81644B54AB7F969B88D65:0"];
    if (hash.startsWith(prefix)) lines.push(`${hash.slice(5)}:1234`);
    res.writeHead(failure?.status ?? 200, { "content-type": "text/plain" });
    res.end(failure?.body ?? lines.join("\r\n"));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  stubBase = `http://127.0.0.1:${(server.address() as AddressInfo).port}/range/`;
  vi.spyOn(globalThis, "fetch").mockImplementation((input, init) => {
    const target = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    if (!target.startsWith(REFERENCE_RANGE)) return realFetch(input, init);
    return realFetch(`${stubBase}${target.slice(REFERENCE_RANGE.length)}`, init);
  });
});
afterAll(async () => {
  vi.restoreAllMocks();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
beforeEach(() => {
  asked = [];
  failure = null;
});

const body = (email: string, password: string) => ({ email, password, name: "Pwned" });
describe("have-i-been-pwned: the same answers from both", () => {
  let pair: Pair;
  beforeAll(async () => {
    pair = await createPair({
      reference: { plugins: [referenceHaveIBeenPwned()] },
      latchkey: { plugins: [haveIBeenPwned({ rangeURL: stubBase })] },
    });
  });
  afterAll(() => pair.close());

  it("a breached password on sign-up: the same 400 PASSWORD_COMPROMISED, no row, the same prefix asked with Add-Padding", async () => {
    const before = countRows(pair.db);
    const ref = await statusAndBody(await pair.reference(jsonPost("/sign-up/email", body("r@example.com", BREACHED))));
    const lk = await statusAndBody(await pair.latchkey(jsonPost("/sign-up/email", body("l@example.com", BREACHED))));
    expect(ref).toEqual({
      status: 400,
      body: {
        code: "PASSWORD_COMPROMISED",
        message: "The password you entered has been compromised. Please choose a different password.",
      },
    });
    expect(lk).toEqual(ref);
    expect(countRows(pair.db)).toEqual(before);
    const expected = { path: `/range/${sha1(BREACHED).slice(0, 5)}`, addPadding: "true" };
    expect(asked).toEqual([expected, expected]);
  });

  it("a clean password signs up on both; a user made by one changes password on the other, checked alike", async () => {
    const ref = await signUp(pair.reference, { email: "clean-r@example.com", password: CLEAN, name: "Pwned" });
    const lk = await signUp(pair.latchkey, { email: "clean-l@example.com", password: CLEAN, name: "Pwned" });
    const change = (cookie: string) =>
      jsonPost("/change-password", { currentPassword: CLEAN, newPassword: BREACHED }, { cookie });
    const refAnswer = await statusAndBody(await pair.reference(change(lk.cookie)));
    const lkAnswer = await statusAndBody(await pair.latchkey(change(ref.cookie)));
    expect(refAnswer.status).toBe(400);
    expect(lkAnswer).toEqual(refAnswer);
  });

  it("row 95: the range API answers 500 — the reference answers 500, Latchkey 503 PASSWORD_CHECK_UNAVAILABLE; neither writes", async () => {
    failure = { status: 500, body: "oops" };
    const before = countRows(pair.db);
    const ref = await statusAndBody(await pair.reference(jsonPost("/sign-up/email", body("down-r@example.com", CLEAN))));
    const lk = await statusAndBody(await pair.latchkey(jsonPost("/sign-up/email", body("down-l@example.com", CLEAN))));
    expect(ref.status).toBe(500);
    expect(ref.body).toMatchObject({ message: "Failed to check password. Status: 500" });
    expect(lk).toEqual({
      status: 503,
      body: { code: "PASSWORD_CHECK_UNAVAILABLE", message: "Failed to check password. Please try again later." },
    });
    expect(countRows(pair.db)).toEqual(before);
  });

  it("row 95: an unreadable count — the reference answers 500, Latchkey 503", async () => {
    failure = { status: 200, body: `${sha1(CLEAN).slice(5)}:many` };
    const ref = await statusAndBody(await pair.reference(jsonPost("/sign-up/email", body("bad-r@example.com", CLEAN))));
    const lk = await statusAndBody(await pair.latchkey(jsonPost("/sign-up/email", body("bad-l@example.com", CLEAN))));
    expect(ref.status).toBe(500);
    expect(ref.body).toMatchObject({ message: "Failed to check password. Please try again later." });
    expect(lk.status).toBe(503);
  });
});

describe("have-i-been-pwned: customPasswordCompromisedMessage and paths", () => {
  let pair: Pair;
  beforeAll(async () => {
    const options = { customPasswordCompromisedMessage: "Choose another", paths: ["/change-password"] };
    pair = await createPair({
      reference: { plugins: [referenceHaveIBeenPwned(options)] },
      latchkey: { plugins: [haveIBeenPwned({ ...options, rangeURL: stubBase })] },
    });
  });
  afterAll(() => pair.close());

  it("sign-up is not listed (no request); change-password answers the custom message on both", async () => {
    const ref = await signUp(pair.reference, { email: "m-r@example.com", password: BREACHED, name: "Pwned" });
    const lk = await signUp(pair.latchkey, { email: "m-l@example.com", password: BREACHED, name: "Pwned" });
    expect(asked).toEqual([]);
    const change = (cookie: string) => jsonPost("/change-password", { currentPassword: BREACHED, newPassword: BREACHED }, { cookie });
    const refAnswer = await statusAndBody(await pair.reference(change(ref.cookie)));
    const lkAnswer = await statusAndBody(await pair.latchkey(change(lk.cookie)));
    expect(refAnswer).toEqual({ status: 400, body: { code: "PASSWORD_COMPROMISED", message: "Choose another" } });
    expect(lkAnswer).toEqual(refAnswer);
  });
});

describe("have-i-been-pwned: a password reset with a breached password", () => {
  const outboxes = { reference: createOutbox(), latchkey: createOutbox() };
  let pair: Pair;
  beforeAll(async () => {
    pair = await createPair({
      reference: {
        plugins: [referenceHaveIBeenPwned()],
        emailAndPassword: { enabled: true, sendResetPassword: outboxes.reference.sendResetPassword },
      },
      latchkey: {
        plugins: [haveIBeenPwned({ rangeURL: stubBase })],
        emailAndPassword: { enabled: true, sendResetPassword: outboxes.latchkey.sendResetPassword },
      },
    });
  });
  afterAll(() => pair.close());

  it("row 132: a breached password at /reset-password: the same 400 on both; the reference spends the token, Latchkey keeps it", async () => {
    const request = async (side: typeof pair.reference, outbox: typeof outboxes.reference, email: string) => {
      await signUp(side, { email, password: CLEAN, name: "Pwned" });
      expect((await side(jsonPost("/request-password-reset", { email, redirectTo: "/reset" }))).status).toBe(200);
      return outbox.mails.filter((m) => m.kind === "reset").at(-1)!.token;
    };
    const tryBreached = async (side: typeof pair.reference, token: string) => {
      asked = [];
      const answer = await statusAndBody(await side(jsonPost("/reset-password", { token, newPassword: BREACHED })));
      expect(asked).toEqual([{ path: `/range/${sha1(BREACHED).slice(0, 5)}`, addPadding: "true" }]);
      return answer;
    };
    // Mailed by the reference, refused by Latchkey: the token still resets on the reference.
    const kept = await request(pair.reference, outboxes.reference, "reset-r@example.com");
    const lkAnswer = await tryBreached(pair.latchkey, kept);
    const good = await pair.reference(jsonPost("/reset-password", { token: kept, newPassword: `${CLEAN} 2` }));
    expect(await good.json()).toEqual({ status: true });
    expect((await pair.latchkey(jsonPost("/sign-in/email", { email: "reset-r@example.com", password: `${CLEAN} 2` }))).status).toBe(200);
    // Mailed by Latchkey, refused by the reference: the reference spent it.
    const spent = await request(pair.latchkey, outboxes.latchkey, "reset-l@example.com");
    const refAnswer = await tryBreached(pair.reference, spent);
    const late = await statusAndBody(await pair.latchkey(jsonPost("/reset-password", { token: spent, newPassword: `${CLEAN} 2` })));
    expect(late).toEqual({ status: 400, body: { code: "INVALID_TOKEN", message: "Invalid token" } });
    expect(refAnswer.status).toBe(400);
    expect(lkAnswer).toEqual(refAnswer);
  });
});
