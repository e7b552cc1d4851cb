import { createOTP } from "@better-auth/utils/otp";
import { createAuthClient } from "better-auth/client";
import { getMigrations } from "better-auth/db/migration";
import { twoFactor as referenceTwoFactor } from "better-auth/plugins";
import { createAuth } from "@latchkey/core";
import { kyselyAdapter } from "@latchkey/adapter-kysely";
import { twoFactor } from "@latchkey/two-factor";
import { twoFactorClient } from "better-auth/client/plugins";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { hotp, matchTotp, totpCode, totpURI } from "@latchkey/two-factor";
import { jarFetch } from "./support/client-fetch.ts";
import { SESSION_COOKIE } from "./support/cookies.ts";
import { BASE_PATH, BASE_URL, SECRET, type Pair } from "./support/instances.ts";
import { openSqlite, tempDatabaseFile } from "./support/sqlite.ts";
import { listen } from "./support/server.ts";
import { normalize, scriptedFlow } from "./support/two-factor-flow.ts";
import {
  Browser,
  challenge,
  enroll,
  outbox,
  PASSWORD,
  referenceCode,
  secretOf,
  TRUST_COOKIE,
  TWO_FACTOR_COOKIE,
  twoFactorPair,
} from "./support/two-factor.ts";

/**
 * `@latchkey/two-factor` beside the reference's `twoFactor()` (better-auth/plugins) on one
 * SQLite file and one secret: the TOTP/HOTP arithmetic against the reference's own functions,
 * enrollments, backup codes, challenges, OTPs and trusted devices made on one side used on the
 * other, one scripted flow answered alike, the reference's `twoFactorClient()` against
 * Latchkey over real HTTP, and divergence rows 88-91.
 */
const utf8 = (text: string) => new TextEncoder().encode(text);
const SECRETS = ["12345678901234567890", "a-Z_09xyzABCDEFGHIJKLMNOPQRSTUVW", "Zz-_0123456789abcdefghijklmnopqr"];

describe("two-factor: HOTP/TOTP vectors computed by the reference's createOTP", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it.each(SECRETS)("HOTP of %s: counters 0-20, 2^31 and 2^40, 6 to 8 digits", async (secret) => {
    for (const digits of [6, 7, 8]) {
      for (const counter of [...Array.from({ length: 21 }, (_, i) => i), 2 ** 31, 2 ** 40]) {
        expect(hotp(utf8(secret), counter, digits)).toBe(await createOTP(secret, { digits }).hotp(counter));
      }
    }
  });

  it.each(SECRETS)("TOTP of %s at several instants, periods 30 and 60; the window edges as the reference verifies", async (secret) => {
    for (const period of [30, 60]) {
      for (const ms of [0, 59_000, 1_111_111_109_000, 1_700_000_000_123, 20_000_000_000_000]) {
        vi.useFakeTimers({ toFake: ["Date"], now: ms });
        const reference = await createOTP(secret, { period }).totp();
        expect(totpCode(secret, { digits: 6, period }, ms)).toBe(reference);
        // Edges of ±1 step: the reference and Latchkey accept and refuse the same instants.
        const step = Math.floor(ms / (period * 1000));
        for (const at of [(step - 1) * period * 1000, (step + 2) * period * 1000 - 1, (step + 2) * period * 1000, (step - 1) * period * 1000 - 1]) {
          vi.setSystemTime(at);
          const theirs = await createOTP(secret, { period }).verify(reference);
          expect(matchTotp(secret, reference, { digits: 6, period }, at) !== null).toBe(theirs);
        }
        vi.useRealTimers();
      }
    }
  });

  it("otpauth URIs are byte for byte the reference's", () => {
    for (const secret of SECRETS) {
      for (const [issuer, account] of [["My App", "a+b@example.com"], ["Ünïcödé & co", "x@y.z"], ["plain", "user"]] as const) {
        expect(totpURI(secret, issuer, account, { digits: 8, period: 60 })).toBe(createOTP(secret, { digits: 8, period: 60 }).url(issuer, account));
      }
    }
  });
});

describe("two-factor: tables made by either side satisfy the other", () => {
  const ddl = (file: string) => {
    const db = openSqlite(file);
    try {
      return db.prepare("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name").all([]);
    } finally {
      db.close();
    }
  };
  it("Latchkey's createTables leaves the reference's migrations nothing to do, and makes the reference's DDL", async () => {
    const [byReference, byLatchkey] = [tempDatabaseFile(), tempDatabaseFile()];
    const connections = [openSqlite(byReference.file), openSqlite(byLatchkey.file)];
    try {
      const referenceOptions = (db: unknown) => ({ database: db, secret: SECRET, baseURL: BASE_URL, emailAndPassword: { enabled: true }, plugins: [referenceTwoFactor()] });
      await (await getMigrations(referenceOptions(connections[0]) as Parameters<typeof getMigrations>[0])).runMigrations();
      const auth = createAuth({ database: kyselyAdapter(connections[1]!), secret: SECRET, baseURL: BASE_URL, emailAndPassword: { enabled: true }, plugins: [twoFactor()] });
      await auth.createTables();
      const { toBeCreated, toBeAdded, toBeAddedIndexes } = await getMigrations(referenceOptions(connections[1]) as Parameters<typeof getMigrations>[0]);
      expect({ toBeCreated, toBeAdded, toBeAddedIndexes }).toEqual({ toBeCreated: [], toBeAdded: [], toBeAddedIndexes: [] });
      expect(await auth.$context.adapter.findSchemaProblems?.()).toEqual([]);
      expect(ddl(byLatchkey.file)).toEqual(ddl(byReference.file));
    } finally {
      for (const c of connections) c.close();
      byReference.remove();
      byLatchkey.remove();
    }
  });
});

describe("two-factor: stored enrollments carry over", () => {
  let pair: Pair;
  beforeAll(async () => {
    pair = await twoFactorPair();
  });
  afterAll(() => pair.close());

  it("the twoFactor table and user column the reference migrated are Latchkey's, column for column", () => {
    const columns = (table: string) => (pair.db.prepare(`pragma table_info("${table}")`).all([]) as { name: string }[]).map((c) => c.name);
    expect(columns("twoFactor").sort()).toEqual(["backupCodes", "failedVerificationCount", "id", "lockedUntil", "secret", "userId", "verified"]);
    expect(columns("user")).toContain("twoFactorEnabled");
  });

  for (const [from, to] of [["reference", "latchkey"], ["latchkey", "reference"]] as const) {
    it(`a secret and backup codes enrolled on the ${from} sign in on the ${to}`, async () => {
      const email = `carry-${from}@example.com`;
      const { secret, backupCodes } = await enroll(new Browser(pair[from]), email);
      const row = pair.db.prepare(`select secret, backupCodes, verified from twoFactor`).all([]) as { secret: string; backupCodes: string }[];
      // Both encrypted: the `$ba$` envelope or hex, never the plain secret or a JSON list.
      for (const r of row) {
        expect(r.secret).not.toContain(secret);
        expect(r.backupCodes.startsWith("[")).toBe(false);
      }
      const byTotp = await challenge(pair[to], email);
      const totp = await byTotp.post("/two-factor/verify-totp", { code: await referenceCode(secret) });
      expect(totp.status).toBe(200);
      expect((await byTotp.session())?.user.email).toBe(email);
      const byCode = await challenge(pair[to], email);
      expect((await byCode.post("/two-factor/verify-backup-code", { code: backupCodes[0] })).status).toBe(200);
      // Used on one side, gone on both.
      const again = await challenge(pair[from], email);
      expect((await again.post("/two-factor/verify-backup-code", { code: backupCodes[0] })).json).toMatchObject({ code: "INVALID_BACKUP_CODE" });
      expect((await again.post("/two-factor/verify-backup-code", { code: backupCodes[1] })).status).toBe(200);
    });

    it(`a challenge, an OTP and a trusted device from the ${from} are honoured by the ${to}`, async () => {
      const email = `challenge-${from}@example.com`;
      const { secret } = await enroll(new Browser(pair[from]), email);
      const browser = await challenge(pair[from], email);
      expect((await browser.post("/two-factor/send-otp")).status).toBe(200);
      browser.handler = pair[to];
      expect((await browser.post("/two-factor/verify-otp", { code: outbox.get(email) })).status).toBe(200);

      const trusting = await challenge(pair[from], email);
      const trusted = await trusting.post("/two-factor/verify-totp", { code: await referenceCode(secret, Date.now() + 30_000), trustDevice: true });
      expect(trusted.status).toBe(200);
      const trust = trusting.jar.get(TRUST_COOKIE);
      expect(trust).toBeTruthy();
      await trusting.post("/sign-out");
      trusting.handler = pair[to];
      const next = await trusting.post("/sign-in/email", { email, password: PASSWORD });
      expect(next.json).toMatchObject({ token: expect.any(String) });
      expect(trusting.jar.get(TRUST_COOKIE)).not.toBe(trust);
    });
  }
});

describe("two-factor: stored OTPs and backup codes in each storage mode carry over", () => {
  const modes = [
    { storeOTP: "hashed", storeBackupCodes: "plain" },
    { storeOTP: "encrypted", storeBackupCodes: "encrypted" },
  ] as const;
  it.each(modes)("storeOTP $storeOTP, storeBackupCodes $storeBackupCodes, both directions", async ({ storeOTP, storeBackupCodes }) => {
    const pair = await twoFactorPair({ otpOptions: { storeOTP }, backupCodeOptions: { storeBackupCodes } });
    try {
      for (const [from, to] of [["reference", "latchkey"], ["latchkey", "reference"]] as const) {
        const email = `mode-${from}@example.com`;
        const { backupCodes } = await enroll(new Browser(pair[from]), email);
        const [row] = pair.db.prepare(`select t.backupCodes as codes from twoFactor t join user u on u.id = t.userId where u.email = ?`).all([email]) as { codes: string }[];
        if (storeBackupCodes === "plain") expect(JSON.parse(row!.codes)).toEqual(backupCodes);
        else expect(row!.codes).not.toContain(backupCodes[0]);
        const browser = await challenge(pair[from], email);
        expect((await browser.post("/two-factor/send-otp")).status).toBe(200);
        browser.handler = pair[to];
        expect((await browser.post("/two-factor/verify-otp", { code: outbox.get(email) })).status).toBe(200);
        const byCode = await challenge(pair[to], email);
        expect((await byCode.post("/two-factor/verify-backup-code", { code: backupCodes[2] })).status).toBe(200);
      }
    } finally {
      pair.close();
    }
  });
});

describe("two-factor: one scripted flow answered alike", () => {
  it("statuses, bodies and Set-Cookie lines (names and attributes) match step by step", async () => {
    const flows: Record<string, Record<string, unknown>> = {};
    for (const side of ["reference", "latchkey"] as const) {
      const pair = await twoFactorPair();
      try {
        flows[side] = await scriptedFlow(pair, side);
      } finally {
        pair.close();
      }
    }
    // The reference's answers are pinned where they carry the point, so a broken harness cannot pass.
    const ref = flows.reference! as Record<string, { status: number; json: unknown; cookies: { name: string; attributes: Record<string, unknown> }[] }>;
    expect(ref["sign-in"]!.json).toEqual({ twoFactorRedirect: true, twoFactorMethods: ["totp", "otp"] });
    expect(ref["sign-in"]!.cookies.find((c) => c.name === TWO_FACTOR_COOKIE)!.attributes["max-age"]).toBe("600");
    expect(ref["sign-in"]!.cookies.filter((c) => c.name === SESSION_COOKIE).every((c) => c.attributes["max-age"] === "0")).toBe(true);
    expect(ref["enable after verifying"]).toMatchObject({ status: 400, json: { code: "TOTP_ALREADY_ENABLED" } });
    expect(ref["a sixth attempt on the challenge"]).toMatchObject({ status: 400, json: { code: "TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE" } });
    expect(ref["verify-otp"]!.status).toBe(200);
    expect(ref["verify-backup-code with trustDevice"]!.cookies.map((c) => c.name)).toContain(TRUST_COOKIE);
    expect(ref["sign-in with otp only"]!.json).toEqual({ twoFactorRedirect: true, twoFactorMethods: ["otp"] });
    const steps = Object.keys(flows.reference!);
    expect(Object.keys(flows.latchkey!)).toEqual(steps);
    // Row 89: the verify-totp that turns two-factor on answers the old session's token and user
    // on the reference, the new ones on Latchkey (tokens are "<any>" here; the flag is masked).
    for (const side of ["reference", "latchkey"] as const) {
      (flows[side]!["verify-totp"] as { json: { user: { twoFactorEnabled: unknown } } }).json.user.twoFactorEnabled = "<row 89>";
    }
    for (const name of steps) {
      expect({ step: name, ...(flows.latchkey![name] as object) }).toEqual({ step: name, ...(flows.reference![name] as object) });
    }
  });

  it("without sendOTP and with TOTP disabled the routes answer alike", async () => {
    const answers: Record<string, unknown[]> = {};
    for (const side of ["reference", "latchkey"] as const) {
      const pair = await twoFactorPair({ noOTP: true, totpOptions: { disable: true } });
      try {
        const b = new Browser(pair[side]);
        await b.post("/sign-up/email", { email: `off-${side}@example.com`, password: PASSWORD, name: "off" });
        answers[side] = [
          normalize(await b.post("/two-factor/enable", { password: PASSWORD })),
          normalize(await b.post("/two-factor/enable", { password: PASSWORD, method: "otp" })),
          normalize(await b.post("/two-factor/get-totp-uri", { password: PASSWORD })),
          normalize(await b.post("/two-factor/verify-totp", { code: "123456" })),
          normalize(await b.post("/two-factor/send-otp")),
          normalize(await b.post("/two-factor/verify-otp", { code: "123456" })),
        ];
      } finally {
        pair.close();
      }
    }
    expect(answers.latchkey).toEqual(answers.reference);
  });
});

describe("two-factor: the reference's own client with twoFactorClient(), over real HTTP", () => {
  /** The flow through `authClient.twoFactor.*`; every `{ data, error }`, normalised, and the redirects seen. */
  async function clientFlow(side: "reference" | "latchkey"): Promise<unknown> {
    const server = await listen();
    const pair = await twoFactorPair({}, { baseURL: server.origin });
    server.use(pair[side]);
    try {
      const redirects: unknown[] = [];
      const make = () => {
        const jar = jarFetch();
        return createAuthClient({
          baseURL: `${server.origin}${BASE_PATH}`,
          fetchOptions: { customFetchImpl: jar.fetch },
          plugins: [twoFactorClient({ onTwoFactorRedirect: (context) => void redirects.push(context) })],
        });
      };
      const strip = (result: { data: unknown; error: unknown }) =>
        normalize({ status: 0, json: result, cookies: [], response: new Response() }) as { json: unknown };
      const email = "client@example.com";
      const first = make();
      const out: unknown[] = [];
      await first.signUp.email({ email, password: PASSWORD, name: "client" });
      const enabled = await first.twoFactor.enable({ password: PASSWORD });
      out.push(strip(enabled).json);
      const secret = secretOf((enabled.data as { totpURI: string }).totpURI);
      out.push(strip(await first.twoFactor.verifyTotp({ code: "nope" })).json);
      out.push(strip(await first.twoFactor.verifyTotp({ code: await referenceCode(secret, Date.now() - 30_000) })).json);
      out.push(strip(await first.twoFactor.getTotpUri({ password: PASSWORD })).json);
      const regenerated = await first.twoFactor.generateBackupCodes({ password: PASSWORD });
      out.push(strip(regenerated).json);

      const second = make();
      out.push(strip(await second.signIn.email({ email, password: PASSWORD })).json);
      out.push(strip(await second.twoFactor.verifyTotp({ code: await referenceCode(secret) })).json);
      out.push(strip(await second.getSession()).json);

      const third = make();
      await third.signIn.email({ email, password: PASSWORD });
      out.push(strip(await third.twoFactor.sendOtp()).json);
      out.push(strip(await third.twoFactor.verifyOtp({ code: outbox.get(email)! })).json);
      const fourth = make();
      await fourth.signIn.email({ email, password: PASSWORD });
      out.push(strip(await fourth.twoFactor.verifyBackupCode({ code: regenerated.data!.backupCodes[0]! })).json);
      out.push(strip(await fourth.twoFactor.disable({ password: PASSWORD })).json);
      out.push(redirects);
      return out;
    } finally {
      pair.close();
      await server.close();
    }
  }

  it("enable, verifyTotp, getTotpUri, generateBackupCodes, onTwoFactorRedirect, sendOtp, verifyOtp, verifyBackupCode, disable: the same { data, error } from both servers", async () => {
    const reference = (await clientFlow("reference")) as unknown[];
    const latchkey = (await clientFlow("latchkey")) as unknown[];
    expect(reference.at(-1)).toEqual([{ twoFactorMethods: ["totp", "otp"] }, { twoFactorMethods: ["totp", "otp"] }, { twoFactorMethods: ["totp", "otp"] }]);
    // Row 89 (the enabling verifyTotp answers the old user on the reference): masked on both.
    for (const flow of [reference, latchkey]) (flow[2] as { data: { user: { twoFactorEnabled: unknown } } }).data.user.twoFactorEnabled = "<row 89>";
    expect(latchkey).toEqual(reference);
  });
});

describe("two-factor: divergence rows 88-91", () => {
  let pair: Pair;
  beforeAll(async () => {
    pair = await twoFactorPair({ issuer: "Acme Issuer" });
  });
  afterAll(() => pair.close());

  it("row 88: one TOTP code at two sign-ins — the reference accepts it twice within its window, Latchkey once", async () => {
    for (const side of ["reference", "latchkey"] as const) {
      const email = `replay-${side}@example.com`;
      const { secret } = await enroll(new Browser(pair[side]), email);
      const code = await referenceCode(secret);
      const first = await (await challenge(pair[side], email)).post("/two-factor/verify-totp", { code });
      expect(first.status).toBe(200);
      const second = await (await challenge(pair[side], email)).post("/two-factor/verify-totp", { code });
      if (side === "reference") expect(second.status).toBe(200);
      else expect(second.json).toEqual({ code: "INVALID_CODE", message: "Invalid code" });
    }
  });

  it("row 89: the verify-totp that turns two-factor on — the reference answers the deleted session's token and the old user, Latchkey the new session", async () => {
    for (const side of ["reference", "latchkey"] as const) {
      const email = `token-${side}@example.com`;
      const b = new Browser(pair[side]);
      await b.post("/sign-up/email", { email, password: PASSWORD, name: "t" });
      const { totpURI } = (await b.post("/two-factor/enable", { password: PASSWORD })).json as { totpURI: string };
      const answer = await b.post("/two-factor/verify-totp", { code: await referenceCode(secretOf(totpURI)) });
      const { token, user } = answer.json as { token: string; user: { twoFactorEnabled: boolean } };
      const [stored] = pair.db.prepare(`select count(*) as n from session where token = ?`).all([token]) as { n: number }[];
      const cookieToken = decodeURIComponent(b.jar.get(SESSION_COOKIE)!).split(".")[0];
      if (side === "reference") {
        expect(stored!.n).toBe(0);
        expect(cookieToken).not.toBe(token);
        expect(user.twoFactorEnabled).toBe(false);
      } else {
        expect(stored!.n).toBe(1);
        expect(cookieToken).toBe(token);
        expect(user.twoFactorEnabled).toBe(true);
      }
    }
  });

  it("row 90: get-totp-uri with the plugin's `issuer` — the reference shows the app name, Latchkey the issuer enable used", async () => {
    for (const side of ["reference", "latchkey"] as const) {
      const b = new Browser(pair[side]);
      const { totpURI: enrolled } = await enroll(b, `issuer-${side}@example.com`);
      expect(new URL(enrolled).searchParams.get("issuer")).toBe("Acme Issuer");
      const again = (await b.post("/two-factor/get-totp-uri", { password: PASSWORD })).json as { totpURI: string };
      expect(new URL(again.totpURI).searchParams.get("issuer")).toBe(side === "reference" ? "Better Auth" : "Acme Issuer");
    }
  });

  it("row 91: twenty wrong codes at once against maxFailedAttempts 10 — the reference checks all twenty, Latchkey ten and locks the rest out", async () => {
    const lockPair = await twoFactorPair({ accountLockout: { maxFailedAttempts: 10 } });
    try {
      for (const side of ["reference", "latchkey"] as const) {
        const email = `lock-${side}@example.com`;
        await enroll(new Browser(lockPair[side]), email);
        const browsers = await Promise.all(Array.from({ length: 20 }, () => challenge(lockPair[side], email)));
        const answers = await Promise.all(browsers.map((b) => b.post("/two-factor/verify-totp", { code: "000000x" })));
        const checked = answers.filter((a) => a.status === 401).length;
        const [row] = lockPair.db
          .prepare(`select t.failedVerificationCount as n, t.lockedUntil as until from twoFactor t join user u on u.id = t.userId where u.email = ?`)
          .all([email]) as { n: number; until: string | null }[];
        expect(row!.until).not.toBeNull();
        if (side === "reference") {
          // Every request read the row before any failure was counted: the limit did not hold.
          expect(checked).toBeGreaterThan(10);
          expect(row!.n).toBe(checked);
        } else {
          expect(checked).toBe(10);
          expect(answers.filter((a) => a.status === 429)).toHaveLength(10);
          expect(row!.n).toBe(10);
        }
      }
    } finally {
      lockPair.close();
    }
  });
});
