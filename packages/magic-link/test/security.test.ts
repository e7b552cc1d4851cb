import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client, linkPath, magicInstance, requestLink } from "./instance.ts";

describe("callback URLs are checked against the trusted origins (origin checks on)", () => {
  let t: Awaited<ReturnType<typeof magicInstance>>;
  beforeAll(async () => {
    t = await magicInstance(
      "sqlite",
      {},
      { trustedOrigins: ["https://app.example.com"], advanced: { disableOriginCheck: false, disableCSRFCheck: false } },
    );
  });
  afterAll(() => t.close());

  it.each(["callbackURL", "newUserCallbackURL", "errorCallbackURL"])(
    "sign-in refuses an untrusted %s (403) and mails nothing",
    async (field) => {
      const before = t.outbox.length;
      const answer = await client(t.auth, { origin: true }).post("/sign-in/magic-link", {
        email: "a@example.com",
        [field]: "https://evil.example/steal",
      });
      expect(answer.status).toBe(403);
      expect(t.outbox.length).toBe(before);
    },
  );

  it.each(["callbackURL", "newUserCallbackURL", "errorCallbackURL"])(
    "verify refuses an untrusted %s with 403 INVALID_CALLBACK_URL and leaves the token unused",
    async (field) => {
      const browser = client(t.auth, { origin: true });
      const mail = await requestLink(browser, t.outbox, { email: "b@example.com" });
      const hostile = await browser.get(`/magic-link/verify?token=${mail.token}&${field}=${encodeURIComponent("https://evil.example/")}`);
      expect(hostile.status).toBe(403);
      expect(hostile.json).toMatchObject({ code: "INVALID_CALLBACK_URL" });
      const fine = await browser.get(`/magic-link/verify?token=${mail.token}&callbackURL=${encodeURIComponent("https://app.example.com/in")}`);
      expect(fine.headers.get("location")).toBe("https://app.example.com/in");
    },
  );

  it("a trusted absolute URL and a relative path pass", async () => {
    const browser = client(t.auth, { origin: true });
    const mail = await requestLink(browser, t.outbox, {
      email: "c@example.com",
      callbackURL: "https://app.example.com/home",
      newUserCallbackURL: "/welcome",
    });
    const answer = await browser.get(linkPath(mail.url));
    expect(answer.headers.get("location")).toBe("http://localhost:3000/welcome");
  });
});

describe("no enumeration", () => {
  it("known and unknown addresses get the same answer and the same timing (median within 15 ms)", async () => {
    const t = await magicInstance("sqlite");
    try {
      const browser = client(t.auth);
      await browser.post("/sign-up/email", { email: "known@example.com", password: "password-1234", name: "Known" });
      const time = async (email: string): Promise<{ ms: number; text: string; status: number }> => {
        const start = performance.now();
        const answer = await client(t.auth).post("/sign-in/magic-link", { email });
        return { ms: performance.now() - start, text: answer.text, status: answer.status };
      };
      const known: number[] = [];
      const unknown: number[] = [];
      for (let i = 0; i < 15; i++) {
        const a = await time("known@example.com");
        const b = await time(`unknown${i}@example.com`);
        expect([a.status, a.text]).toEqual([b.status, b.text]);
        known.push(a.ms);
        unknown.push(b.ms);
      }
      const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
      expect(Math.abs(median(known) - median(unknown))).toBeLessThan(15);
    } finally {
      await t.close();
    }
  });
});

describe("undecodable callback parameters", () => {
  it("never a 500: a value that does not percent-decode is used as sent (DIVERGENCES.md row 80)", async () => {
    const t = await magicInstance("sqlite");
    try {
      const browser = client(t.auth);
      const mail = await requestLink(browser, t.outbox, { email: "pct@example.com" });
      const answer = await browser.get(`/magic-link/verify?token=${mail.token}&callbackURL=%2Fa%25`);
      expect(answer.status).toBe(302);
      expect(answer.headers.get("location")).toBe("http://localhost:3000/a%");
    } finally {
      await t.close();
    }
  });
});
