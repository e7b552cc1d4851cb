import { createAuthClient } from "better-auth/client";
import { phoneNumberClient } from "better-auth/client/plugins";
import { phoneNumber as referencePhoneNumber } from "better-auth/plugins";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { phoneNumber } from "@latchkey/phone-number";
import { jarFetch } from "./support/client-fetch.ts";
import { CookieJar, responseCookies } from "./support/cookies.ts";
import { BASE_PATH, createPair, url, type Handler, type Pair } from "./support/instances.ts";
import { listen } from "./support/server.ts";

/**
 * `@latchkey/phone-number` beside the reference's `phoneNumber()` (better-auth/plugins) on one
 * SQLite file, both sending codes into one outbox: codes stored by one are verified (and their
 * wrong attempts counted) by the other, one scripted flow answers alike, and the reference's
 * `phoneNumberClient()` works against Latchkey. Row 67 of DIVERGENCES.md at the end.
 */
const PASSWORD = "password-1234";
const sent: Array<{ kind: "otp" | "reset"; phoneNumber: string; code: string }> = [];
const lastCode = (phone: string, kind: "otp" | "reset" = "otp"): string =>
  sent.filter((m) => m.phoneNumber === phone && m.kind === kind).at(-1)!.code;

const options = {
  sendOTP: ({ phoneNumber, code }: { phoneNumber: string; code: string }) =>
    void sent.push({ kind: "otp", phoneNumber, code }),
  sendPasswordResetOTP: ({ phoneNumber, code }: { phoneNumber: string; code: string }) =>
    void sent.push({ kind: "reset", phoneNumber, code }),
  signUpOnVerification: { getTempEmail: (phone: string) => `${phone.replace(/\D/g, "")}@phone.example.com` },
};

class Browser {
  readonly jar = new CookieJar();
  constructor(public handler: Handler) {}
  async post(path: string, body: unknown): Promise<{ status: number; json: unknown; cookies: string[] }> {
    const response = await this.handler(
      new Request(url(path), {
        method: "POST",
        headers: { "content-type": "application/json", cookie: this.jar.header() },
        body: JSON.stringify(body),
      }),
    );
    this.jar.store(response);
    const text = await response.text();
    return {
      status: response.status,
      json: text ? JSON.parse(text) : null,
      cookies: responseCookies(response).map((c) => c.name),
    };
  }
}

const normalize = (value: unknown, side: string): unknown =>
  JSON.parse(
    JSON.stringify(value, (key, v: unknown) =>
      ["id", "token", "createdAt", "updatedAt"].includes(key) ? "<any>" : v,
    )
      .replaceAll(side === "reference" ? "+1555555" : "+1666666", "+1XXXXXX")
      .replaceAll(side === "reference" ? "1555555" : "1666666", "1XXXXXX"),
  );

describe("phone-number beside the reference", () => {
  let pair: Pair;
  beforeAll(async () => {
    pair = await createPair({
      reference: { plugins: [referencePhoneNumber(options)] },
      latchkey: { plugins: [phoneNumber(options)] },
    });
  });
  afterAll(() => pair.close());

  it("the reference's columns serve Latchkey (createTables added nothing)", () => {
    const columns = pair.db
      .prepare("select name from pragma_table_info('user') where name like 'phone%' order by name")
      .all([]);
    expect(columns).toEqual([{ name: "phoneNumber" }, { name: "phoneNumberVerified" }]);
  });

  for (const [from, to] of [
    ["reference", "latchkey"],
    ["latchkey", "reference"],
  ] as const) {
    it(`a code sent by ${from} is verified by ${to}; wrong attempts counted on both sides add up`, async () => {
      const phone = from === "reference" ? "+15550001001" : "+15550002001";
      await new Browser(pair[from]).post("/phone-number/send-otp", { phoneNumber: phone });
      const browser = new Browser(pair[to]);
      const ok = await browser.post("/phone-number/verify", { phoneNumber: phone, code: lastCode(phone) });
      expect(ok.status).toBe(200);
      expect(ok.json).toMatchObject({
        status: true,
        user: { phoneNumber: phone, phoneNumberVerified: true },
      });

      const other = from === "reference" ? "+15550001002" : "+15550002002";
      await new Browser(pair[from]).post("/phone-number/send-otp", { phoneNumber: other });
      const code = lastCode(other);
      const wrong = code === "000000" ? "111111" : "000000";
      const answers = [];
      for (const side of [from, to, from] as const)
        answers.push(
          (await new Browser(pair[side]).post("/phone-number/verify", { phoneNumber: other, code: wrong }))
            .status,
        );
      expect(answers).toEqual([400, 400, 400]);
      const blocked = await new Browser(pair[to]).post("/phone-number/verify", { phoneNumber: other, code });
      expect([blocked.status, (blocked.json as { code: string }).code]).toEqual([403, "TOO_MANY_ATTEMPTS"]);
    });
  }

  it("one scripted flow answers alike (statuses, bodies, cookie names)", async () => {
    const flow = async (side: "reference" | "latchkey") => {
      const prefix = side === "reference" ? "+1555555" : "+1666666";
      const phone = `${prefix}0100`;
      const browser = new Browser(pair[side]);
      const steps: unknown[] = [];
      steps.push(await browser.post("/phone-number/send-otp", { phoneNumber: phone }));
      const code = lastCode(phone);
      steps.push(
        await browser.post("/phone-number/verify", {
          phoneNumber: phone,
          code: code === "000000" ? "111111" : "000000",
        }),
      );
      steps.push(await browser.post("/phone-number/verify", { phoneNumber: phone, code }));
      steps.push(await browser.post("/phone-number/verify", { phoneNumber: phone, code }));
      steps.push(await browser.post("/update-user", { phoneNumber: `${prefix}0101` }));
      steps.push(await browser.post("/sign-in/phone-number", { phoneNumber: phone, password: PASSWORD }));
      steps.push(await browser.post("/phone-number/request-password-reset", { phoneNumber: phone }));
      steps.push(
        await browser.post("/phone-number/request-password-reset", { phoneNumber: `${prefix}0199` }),
      );
      steps.push(
        await browser.post("/phone-number/reset-password", {
          otp: lastCode(phone, "reset"),
          phoneNumber: phone,
          newPassword: "short",
        }),
      );
      await browser.post("/phone-number/request-password-reset", { phoneNumber: phone });
      steps.push(
        await browser.post("/phone-number/reset-password", {
          otp: lastCode(phone, "reset"),
          phoneNumber: phone,
          newPassword: PASSWORD,
        }),
      );
      steps.push(
        await new Browser(pair[side]).post("/sign-in/phone-number", {
          phoneNumber: phone,
          password: PASSWORD,
        }),
      );
      steps.push(
        await new Browser(pair[side]).post("/sign-in/phone-number", {
          phoneNumber: `${prefix}0199`,
          password: PASSWORD,
        }),
      );
      steps.push(await browser.post("/phone-number/send-otp", { phone }));
      steps.push(await browser.post("/update-user", { phoneNumber: null }));
      return normalize(steps, side);
    };
    expect(await flow("latchkey")).toEqual(await flow("reference"));
  });
});

describe("phone-number: the reference's phoneNumberClient() against Latchkey over HTTP", () => {
  it("send, verify, sign in by number: the same { data, error } as against the reference", async () => {
    const results: Record<string, unknown> = {};
    for (const side of ["reference", "latchkey"] as const) {
      const server = await listen();
      const pair = await createPair({
        baseURL: server.origin,
        reference: { plugins: [referencePhoneNumber(options)] },
        latchkey: { plugins: [phoneNumber(options)] },
      });
      server.use(pair[side]);
      try {
        const client = createAuthClient({
          baseURL: `${server.origin}${BASE_PATH}`,
          fetchOptions: { customFetchImpl: jarFetch().fetch },
          plugins: [phoneNumberClient()],
        });
        const phone = side === "reference" ? "+15555550300" : "+16666660300";
        const steps: unknown[] = [];
        steps.push(await client.phoneNumber.sendOtp({ phoneNumber: phone }));
        steps.push(await client.phoneNumber.verify({ phoneNumber: phone, code: lastCode(phone) }));
        steps.push(await client.signIn.phoneNumber({ phoneNumber: phone, password: PASSWORD }));
        results[side] = normalize(steps, side);
      } finally {
        pair.close();
        await server.close();
      }
    }
    expect(results.latchkey).toEqual(results.reference);
  });
});

describe("phone-number: divergences (DIVERGENCES.md row 67)", () => {
  it("row 67: a number longer than the column (191) — the reference stores and sends it, Latchkey answers 400", async () => {
    const pair = await createPair({
      reference: { plugins: [referencePhoneNumber(options)] },
      latchkey: { plugins: [phoneNumber(options)] },
    });
    try {
      const long = `+1${"5".repeat(200)}`;
      const reference = await new Browser(pair.reference).post("/phone-number/send-otp", {
        phoneNumber: long,
      });
      expect(reference.status).toBe(200);
      const before = sent.length;
      const latchkey = await new Browser(pair.latchkey).post("/phone-number/send-otp", { phoneNumber: long });
      expect([latchkey.status, latchkey.json]).toEqual([
        400,
        {
          code: "VALIDATION_ERROR",
          message: "[body.phoneNumber] Too big: expected string to have <=191 characters",
        },
      ]);
      expect(sent.length).toBe(before);
    } finally {
      pair.close();
    }
  });
});
