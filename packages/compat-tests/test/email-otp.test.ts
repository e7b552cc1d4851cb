import { createAuthClient } from "better-auth/client";
import { emailOTPClient } from "better-auth/client/plugins";
import { emailOTP as referenceEmailOTP } from "better-auth/plugins";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emailOTP, type EmailOTPOptions } from "@latchkey/email-otp";
import { CookieJar } from "./support/cookies.ts";
import { createPair, jsonPost, url, type Pair } from "./support/instances.ts";
import { normalizeCaptured } from "./support/normalize.ts";
import { sendBoth } from "./support/send-both.ts";
import { livePair } from "./support/live-pair.ts";
import { createRedisPair } from "./support/redis-pair.ts";

/**
 * `@latchkey/email-otp` beside the reference's `emailOTP()` on one SQLite file: codes one side
 * stores (plain, hashed, encrypted) are redeemed by the other with the attempt counter carried
 * in the value, every route answers alike from the same rows, and the reference's
 * `emailOTPClient()` works against Latchkey over real HTTP. Rows 81-82 of DIVERGENCES.md
 * are asserted at the end.
 */
interface Mail {
  email: string;
  otp: string;
  type: string;
}
type Side = "reference" | "latchkey";
type Options = Omit<EmailOTPOptions, "sendVerificationOTP">;
const PASSWORD = "password-1234";

/** A pair whose plugins mail into one outbox per side. */
async function otpPair(options: Options = {}, shared: Parameters<typeof createPair>[0] = {}) {
  const outbox: Record<Side, Mail[]> = { reference: [], latchkey: [] };
  const pair = await createPair({
    ...shared,
    reference: {
      ...shared.reference,
      plugins: [referenceEmailOTP({ ...(options as object), sendVerificationOTP: async (m: Mail) => void outbox.reference.push(m) })],
    },
    latchkey: { ...shared.latchkey, plugins: [emailOTP({ ...options, sendVerificationOTP: (m) => void outbox.latchkey.push(m) })] },
  });
  return { pair, outbox };
}

/** The stored `value` of an identifier's newest row. */
const storedValue = (pair: Pair, identifier: string): string | undefined =>
  (pair.db.prepare("select value from verification where identifier = ? order by createdAt desc").all([identifier]) as { value: string }[])[0]
    ?.value;

async function post(pair: Pair, side: Side, path: string, body: unknown, cookie?: string) {
  const response = await pair[side](jsonPost(path, body, cookie ? { cookie } : {}));
  const text = await response.text();
  return { status: response.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : null, response };
}

describe.each(["plain", "hashed", "encrypted"] as const)("email-otp (storeOTP %s): codes cross over", (storeOTP) => {
  let pair: Pair;
  let outbox: Record<Side, Mail[]>;
  beforeAll(async () => {
    ({ pair, outbox } = await otpPair({ storeOTP }));
  });
  afterAll(() => pair.close());

  for (const [from, to] of [["reference", "latchkey"], ["latchkey", "reference"]] as const) {
    it(`a sign-in code ${from} stored signs in on ${to}, after wrong guesses ${from} counted`, async () => {
      const email = `cross-${storeOTP}-${from}@example.com`;
      expect((await post(pair, from, "/email-otp/send-verification-otp", { email, type: "sign-in" })).json).toEqual({ success: true });
      const otp = outbox[from].at(-1)!.otp;
      const identifier = `sign-in-otp-${email}`;
      expect(storedValue(pair, identifier)).toMatch(/:0$/);
      const bad = otp === "000000" ? "111111" : "000000";
      expect((await post(pair, from, "/sign-in/email-otp", { email, otp: bad })).json).toMatchObject({ code: "INVALID_OTP" });
      expect((await post(pair, to, "/sign-in/email-otp", { email, otp: bad })).json).toMatchObject({ code: "INVALID_OTP" });
      expect(storedValue(pair, identifier)).toMatch(/:2$/);
      const signed = await post(pair, to, "/sign-in/email-otp", { email, otp });
      expect(signed.status).toBe(200);
      expect(signed.json!.user).toMatchObject({ email, emailVerified: true });
      const jar = new CookieJar();
      jar.store(signed.response);
      const session = await pair[from](new Request(url("/get-session"), { headers: { cookie: jar.header() } }));
      expect(((await session.json()) as { user: { email: string } }).user.email).toBe(email);
    });

    it(`a code at its attempt limit on ${from} is refused on ${to} with 403`, async () => {
      const email = `limit-${storeOTP}-${from}@example.com`;
      await post(pair, from, "/email-otp/send-verification-otp", { email, type: "sign-in" });
      const otp = outbox[from].at(-1)!.otp;
      const bad = otp === "000000" ? "111111" : "000000";
      for (let i = 0; i < 3; i++) await post(pair, from, "/sign-in/email-otp", { email, otp: bad });
      expect(storedValue(pair, `sign-in-otp-${email}`)).toMatch(/:3$/);
      const refused = await post(pair, to, "/sign-in/email-otp", { email, otp });
      expect(refused.status).toBe(403);
      expect(refused.json).toEqual({ code: "TOO_MANY_ATTEMPTS", message: "Too many attempts" });
    });
  }

  it("the same code is stored in the same form on both (hashed: identical; plain: identical; encrypted: each decrypts the other's)", async () => {
    const values: string[] = [];
    for (const side of ["reference", "latchkey"] as const) {
      const local = await otpPair({ storeOTP, generateOTP: () => "424242" });
      try {
        await post(local.pair, side, "/email-otp/send-verification-otp", { email: "Form@Example.com", type: "sign-in" });
        const rows = local.pair.db.prepare("select identifier, value from verification").all([]) as { identifier: string; value: string }[];
        expect(rows.map((r) => r.identifier)).toEqual(["sign-in-otp-form@example.com"]);
        values.push(rows[0]!.value);
      } finally {
        local.pair.close();
      }
    }
    if (storeOTP === "encrypted") for (const v of values) expect(v).toMatch(/^[0-9a-f]+:0$/);
    else expect(values[1]).toBe(values[0]);
  });
});

describe("email-otp: the same answers from the same stored rows", () => {
  let pair: Pair;
  let cookie: string;
  beforeAll(async () => {
    ({ pair } = await otpPair({ generateOTP: () => "123456", changeEmail: { enabled: true } }));
    const signUp = await pair.reference(jsonPost("/sign-up/email", { email: "known@example.com", password: PASSWORD, name: "Known" }));
    const jar = new CookieJar();
    jar.store(signUp);
    cookie = jar.header();
    await pair.reference(jsonPost("/sign-up/email", { email: "taken@example.com", password: PASSWORD, name: "Taken" }));
  });
  afterAll(() => pair.close());

  async function same(request: Request): Promise<{ status: number; body: unknown }> {
    const result = await sendBoth(pair, request);
    const reference = normalizeCaptured(result.reference, result.known);
    expect(normalizeCaptured(result.latchkey, result.known)).toEqual(reference);
    expect(result.writes.latchkey).toEqual(result.writes.reference);
    return reference;
  }
  /** Seeds a code through the reference, then optionally edits its row. */
  async function seed(email: string, type: string, edit?: { value?: string; expired?: boolean }): Promise<void> {
    await pair.reference(jsonPost("/email-otp/send-verification-otp", { email, type }));
    const identifier = `${type}-otp-${email}`;
    if (edit?.value) pair.db.prepare("update verification set value = ? where identifier = ?").run([edit.value, identifier]);
    if (edit?.expired) pair.db.prepare("update verification set expiresAt = ? where identifier = ?").run([new Date(Date.now() - 1000).toISOString(), identifier]);
  }
  const reset = () => pair.db.exec("delete from verification");

  it.each([
    ["sign-in, known", { email: "known@example.com", type: "sign-in" }],
    ["sign-in, unknown (sign-up allowed)", { email: "new@example.com", type: "sign-in" }],
    ["email-verification, known", { email: "Known@Example.com", type: "email-verification" }],
    ["email-verification, unknown", { email: "ghost@example.com", type: "email-verification" }],
    ["forget-password, unknown", { email: "ghost@example.com", type: "forget-password" }],
    ["change-email type", { email: "known@example.com", type: "change-email" }],
    ["invalid email", { email: "nope", type: "sign-in" }],
    ["unknown type", { email: "known@example.com", type: "other" }],
    ["no type", { email: "known@example.com" }],
    ["type as a number", { email: "known@example.com", type: 5 }],
  ])("POST /email-otp/send-verification-otp: %s", async (_name, body) => {
    reset();
    await same(jsonPost("/email-otp/send-verification-otp", body));
  });

  const codeCases: Array<[string, Record<string, unknown>, Parameters<typeof seed>[2] | null]> = [
    ["right code", { otp: "123456" }, {}],
    ["wrong code", { otp: "654321" }, {}],
    ["no code stored", { otp: "123456" }, null],
    ["expired code", { otp: "123456" }, { expired: true }],
    ["attempts used up", { otp: "123456" }, { value: "123456:3" }],
    ["two wrong attempts so far, right code", { otp: "123456" }, { value: "123456:2" }],
  ];

  it.each(codeCases)("POST /email-otp/check-verification-otp: %s", async (_name, body, edit) => {
    reset();
    if (edit) await seed("known@example.com", "email-verification", edit);
    await same(jsonPost("/email-otp/check-verification-otp", { email: "known@example.com", type: "email-verification", ...body }));
  });

  it.each(codeCases)("POST /email-otp/verify-email: %s", async (_name, body, edit) => {
    reset();
    if (edit) await seed("known@example.com", "email-verification", edit);
    await same(jsonPost("/email-otp/verify-email", { email: "known@example.com", ...body }));
  });

  it.each(codeCases)("POST /sign-in/email-otp (new user): %s", async (_name, body, edit) => {
    reset();
    if (edit) await seed("fresh@example.com", "sign-in", edit);
    await same(jsonPost("/sign-in/email-otp", { email: "fresh@example.com", name: "Fresh", ...body }));
  });

  it("POST /sign-in/email-otp: an unverified user with a password and a session is promoted alike", async () => {
    reset();
    await seed("known@example.com", "sign-in", {});
    const answer = await sendBoth(pair, jsonPost("/sign-in/email-otp", { email: "known@example.com", otp: "123456" }));
    expect(normalizeCaptured(answer.latchkey, answer.known)).toEqual(normalizeCaptured(answer.reference, answer.known));
    expect(answer.writes.reference).toMatchObject({ account: -1, verification: -1 });
    expect(answer.writes.latchkey).toEqual(answer.writes.reference);
  });

  it.each([
    ["/email-otp/request-password-reset", "known@example.com"],
    ["/email-otp/request-password-reset", "ghost@example.com"],
    ["/forget-password/email-otp", "known@example.com"],
    ["/forget-password/email-otp", "ghost@example.com"],
  ])("POST %s for %s", async (path, email) => {
    reset();
    await same(jsonPost(path, { email }));
  });

  it.each(codeCases)("POST /email-otp/reset-password: %s", async (_name, body, edit) => {
    reset();
    if (edit) await seed("known@example.com", "forget-password", edit);
    await same(jsonPost("/email-otp/reset-password", { email: "known@example.com", password: "another-password-1", ...body }));
  });

  it("POST /email-otp/reset-password: a password too short", async () => {
    reset();
    await same(jsonPost("/email-otp/reset-password", { email: "known@example.com", otp: "123456", password: "short" }));
  });

  it.each([
    ["a new address", { newEmail: "Moved@Example.com" }],
    ["the same address", { newEmail: "known@example.com" }],
    ["a taken address", { newEmail: "taken@example.com" }],
    ["an invalid address", { newEmail: "nope" }],
  ])("POST /email-otp/request-email-change: %s", async (_name, body) => {
    reset();
    await same(jsonPost("/email-otp/request-email-change", body, { cookie }));
  });

  it("POST /email-otp/request-email-change without a session", async () => {
    await same(jsonPost("/email-otp/request-email-change", { newEmail: "moved@example.com" }));
  });

  it.each([
    ["right code", "123456"],
    ["wrong code", "654321"],
  ])("POST /email-otp/change-email: %s", async (_name, otp) => {
    reset();
    await pair.reference(jsonPost("/email-otp/request-email-change", { newEmail: "moved@example.com" }, { cookie }));
    await same(jsonPost("/email-otp/change-email", { newEmail: "moved@example.com", otp }, { cookie }));
  });
});

describe("email-otp: the reference's emailOTPClient() over real HTTP", () => {
  const seen: Record<string, unknown> = {};
  for (const side of ["reference", "latchkey"] as const) {
    it(`sendVerificationOtp, signIn.emailOtp, checkVerificationOtp, verifyEmail, requestPasswordReset, resetPassword against ${side}`, async () => {
      const outbox: Mail[] = [];
      const send = async (m: Mail) => void outbox.push(m);
      const live = await livePair(side, {
        reference: { plugins: [referenceEmailOTP({ sendVerificationOTP: send })] },
        latchkey: { plugins: [emailOTP({ sendVerificationOTP: send })] },
      });
      try {
        const jar = live.jar;
        const auth = createAuthClient({ baseURL: live.baseURL, fetchOptions: { customFetchImpl: jar.fetch }, plugins: [emailOTPClient()] });
        const email = "client@example.com";
        const results: unknown[] = [];
        results.push(await auth.emailOtp.sendVerificationOtp({ email, type: "sign-in" }));
        const signed = await auth.signIn.emailOtp({ email, otp: outbox.at(-1)!.otp, name: "Client" });
        results.push(signed.error, signed.data?.user.email, signed.data?.user.emailVerified);
        results.push((await auth.getSession()).data?.user.email);
        await auth.emailOtp.sendVerificationOtp({ email, type: "email-verification" });
        const code = outbox.at(-1)!.otp;
        results.push(await auth.emailOtp.checkVerificationOtp({ email, type: "email-verification", otp: code }));
        const verified = await auth.emailOtp.verifyEmail({ email, otp: code });
        results.push(verified.error, verified.data?.status, verified.data?.token);
        results.push(await auth.emailOtp.requestPasswordReset({ email }));
        results.push(await auth.emailOtp.resetPassword({ email, otp: outbox.at(-1)!.otp, password: "client-password-1" }));
        results.push(await auth.signIn.emailOtp({ email, otp: "000000" }));
        seen[side] = { results, calls: jar.calls };
      } finally {
        await live.close();
      }
    });
  }
  it("gives the same results and calls on both", () => {
    expect(seen.latchkey).toEqual(seen.reference);
  });
});

describe("email-otp: divergence rows 81-82, and a failing sender", () => {
  it("row 81: 20 parallel wrong codes on check-verification-otp — the reference compares every one and loses counts, Latchkey compares at most allowedAttempts", async () => {
    const compared: Record<Side, number> = { reference: 0, latchkey: 0 };
    const counting = (side: Side) => ({
      hash: async (otp: string) => {
        compared[side]++;
        return `h-${otp}`;
      },
    });
    const outbox: Mail[] = [];
    const send = async (m: Mail) => void outbox.push(m);
    const pair = await createPair({
      reference: { plugins: [referenceEmailOTP({ sendVerificationOTP: send, storeOTP: counting("reference") })] },
      latchkey: { plugins: [emailOTP({ sendVerificationOTP: send, storeOTP: counting("latchkey") })] },
    });
    try {
      for (const side of ["reference", "latchkey"] as const) {
        const email = `race-${side}@example.com`;
        await pair[side](jsonPost("/sign-up/email", { email, password: PASSWORD, name: "R" }));
        await post(pair, side, "/email-otp/send-verification-otp", { email, type: "email-verification" });
        const otp = outbox.at(-1)!.otp;
        compared[side] = 0;
        const answers = await Promise.all(
          Array.from({ length: 20 }, () =>
            post(pair, side, "/email-otp/check-verification-otp", { email, type: "email-verification", otp: otp === "000000" ? "111111" : "000000" }),
          ),
        );
        expect(answers.every((a) => a.status === 400 || a.status === 403)).toBe(true);
        const attempts = Number(storedValue(pair, `email-verification-otp-${email}`)?.split(":").at(-1) ?? "0");
        if (side === "reference") {
          expect(compared.reference).toBeGreaterThan(3);
          expect(attempts).toBeLessThan(compared.reference);
        } else {
          expect(compared.latchkey).toBeLessThanOrEqual(3);
          expect(attempts).toBe(compared.latchkey);
        }
      }
    } finally {
      pair.close();
    }
  });

  it("row 82: with a 150 ms mail sender, the reference answers an unknown address sooner than a known one; Latchkey answers both after the same floor", async () => {
    const slow = () => new Promise<void>((resolve) => setTimeout(resolve, 150));
    const pair = await createPair({
      reference: { plugins: [referenceEmailOTP({ sendVerificationOTP: slow })] },
      latchkey: { plugins: [emailOTP({ sendVerificationOTP: slow })] },
    });
    try {
      await pair.reference(jsonPost("/sign-up/email", { email: "known@example.com", password: PASSWORD, name: "K" }));
      const timed = async (side: Side, email: string) => {
        const start = performance.now();
        const answer = await post(pair, side, "/email-otp/send-verification-otp", { email, type: "email-verification" });
        expect(answer.json).toEqual({ success: true });
        return performance.now() - start;
      };
      // Known and unknown timed side by side (a busy machine slows both alike), three times; the
      // median difference is compared.
      const difference = async (side: Side) => {
        const differences: number[] = [];
        for (let i = 0; i < 3; i++) {
          const [known, unknown] = await Promise.all([timed(side, "known@example.com"), timed(side, `nobody-${i}@example.com`)]);
          differences.push(known - unknown);
        }
        return differences.sort((a, b) => a - b)[1]!;
      };
      expect(await difference("reference")).toBeGreaterThan(100);
      expect(Math.abs(await difference("latchkey"))).toBeLessThan(60);
    } finally {
      pair.close();
    }
  });

  it("a mail sender that throws: both answer 200 for known and unknown addresses", async () => {
    const failing = async () => {
      throw new Error("smtp down");
    };
    const pair = await createPair({
      reference: { plugins: [referenceEmailOTP({ sendVerificationOTP: failing })] },
      latchkey: { plugins: [emailOTP({ sendVerificationOTP: failing })] },
    });
    try {
      await pair.reference(jsonPost("/sign-up/email", { email: "known@example.com", password: PASSWORD, name: "K" }));
      const status = async (side: Side, email: string) =>
        (await post(pair, side, "/email-otp/send-verification-otp", { email, type: "email-verification" })).status;
      expect([await status("reference", "known@example.com"), await status("reference", "nobody@example.com")]).toEqual([200, 200]);
      expect([await status("latchkey", "known@example.com"), await status("latchkey", "nobody@example.com")]).toEqual([200, 200]);
    } finally {
      pair.close();
    }
  });
});

describe("email-otp: codes in Redis secondary storage, shared by both", () => {
  it("a code one side stored in Redis (with a wrong guess counted) signs in on the other, both ways", async () => {
    const outbox: Mail[] = [];
    const send = async (m: Mail) => void outbox.push(m);
    const redisPair = await createRedisPair(
      {},
      {
        reference: { plugins: [referenceEmailOTP({ sendVerificationOTP: send, storeOTP: "hashed" })] },
        latchkey: { plugins: [emailOTP({ sendVerificationOTP: send, storeOTP: "hashed" })] },
      },
    );
    const handlers = { reference: redisPair.reference, latchkey: redisPair.latchkey };
    const call = async (side: Side, path: string, body: unknown) => {
      const response = await handlers[side](jsonPost(path, body));
      return { status: response.status, json: (await response.json()) as Record<string, unknown> };
    };
    try {
      for (const [from, to] of [["reference", "latchkey"], ["latchkey", "reference"]] as const) {
        const email = `redis-${from}@example.com`;
        await call(from, "/email-otp/send-verification-otp", { email, type: "sign-in" });
        const otp = outbox.at(-1)!.otp;
        const stored = (await redisPair.stored(`verification:sign-in-otp-${email}`)) as { value: string };
        expect(stored.value).toMatch(/^[A-Za-z0-9_-]{43}:0$/);
        const bad = otp === "000000" ? "111111" : "000000";
        expect((await call(to, "/sign-in/email-otp", { email, otp: bad })).json).toMatchObject({ code: "INVALID_OTP" });
        expect(((await redisPair.stored(`verification:sign-in-otp-${email}`)) as { value: string }).value).toMatch(/:1$/);
        const signed = await call(to, "/sign-in/email-otp", { email, otp });
        expect(signed.status).toBe(200);
        expect(await redisPair.stored(`verification:sign-in-otp-${email}`)).toBeNull();
      }
    } finally {
      await redisPair.close();
    }
  });
});
