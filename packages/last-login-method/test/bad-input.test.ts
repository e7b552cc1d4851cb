import { memoryAdapter, type Row } from "@latchkey/core";
import {
  badInputBattery,
  FAULT_MESSAGE,
  faultyAdapter,
  testAuth,
  VALIDATION_ERROR,
  type CaseExpectations,
  type FaultSwitch,
} from "@latchkey/test-support";
import { describe, expect, it } from "vitest";
import { lastLoginMethod } from "../src/index.ts";
import { emailOtpStandIn } from "./email-otp-stand-in.ts";
import { ada, COOKIE, cookieValue, findCookie, lastLoginInstance } from "./instance.ts";

const rows = (store: Record<string, Row[]>) =>
  Object.fromEntries(["user", "account", "session"].map((n) => [n, store[n]?.length ?? 0]));

/** Core's validation answers on the routes the plugin hooks (the reference's codes). */
const validation: CaseExpectations = {
  "malformed JSON": { status: 400, code: "BAD_REQUEST" },
  "JSON array": VALIDATION_ERROR,
  "wrong type": VALIDATION_ERROR,
};

badInputBattery({
  name: "bad sign-in input writes neither the cookie nor the column (SQLite)",
  instance: () =>
    testAuth(
      {
        emailAndPassword: { enabled: true },
        socialProviders: { github: { clientId: "id", clientSecret: "s" } },
        plugins: [lastLoginMethod({ storeInDatabase: true }), emailOtpStandIn()],
      },
      { db: "sqlite" },
    ),
  routes: [
    // A too-short password: everything else in the body is valid, and nothing is written.
    { method: "POST", path: "/sign-up/email", validBody: { ...ada, password: "short" }, expect: validation },
    // An unknown user: refused after validation, nothing written.
    {
      method: "POST",
      path: "/sign-in/email",
      validBody: { email: ada.email, password: ada.password },
      expect: validation,
    },
    // A failed social callback (bad state, unknown provider) redirects with an error.
    {
      method: "GET",
      path: "/callback/:id",
      params: { id: "github" },
      validQuery: { state: "x", code: "y" },
      nonJSON: true,
    },
  ],
  check: (answer) => expect(findCookie(answer.response, COOKIE)).toBeUndefined(),
});

describe("bad sign-in input writes neither the cookie nor the column", () => {
  it("sign-up with a client-set lastLoginMethod → 400 FIELD_NOT_ALLOWED", async () => {
    const store: Record<string, Row[]> = {};
    const { request } = lastLoginInstance({ storeInDatabase: true }, { database: memoryAdapter(store) });
    const res = await request("/sign-up/email", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ ...ada, lastLoginMethod: "passkey" }),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { code: string }).code).toBe("FIELD_NOT_ALLOWED");
    expect(findCookie(res, COOKIE)).toBeUndefined();
    expect(rows(store)).toEqual({ user: 0, account: 0, session: 0 });
  });

  it("a failed social callback (bad state, unknown provider, path traversal) writes no cookie", async () => {
    const { request } = lastLoginInstance(
      {},
      { socialProviders: { github: { clientId: "id", clientSecret: "s" } } },
    );
    for (const path of [
      "/callback/github?state=x&code=y",
      "/callback/..%2Fsign-in%2Femail?state=x",
      "/callback/nope?code=y&code=z",
    ]) {
      const res = await request(path);
      expect(res.status).toBe(302);
      expect(findCookie(res, COOKIE)).toBeUndefined();
    }
  });
});

describe("what reaches Set-Cookie and the column", () => {
  it("a custom method with CRLF, separators and unicode is percent-encoded into one cookie, stored as is", async () => {
    const method = "evil\r\nSet-Cookie: admin=1; Domain=evil.test; ünï";
    const store: Record<string, Row[]> = {};
    const { post } = lastLoginInstance(
      {
        storeInDatabase: true,
        customResolveMethod: (ctx) => (ctx.path === "/sign-up/email" ? method : null),
      },
      { database: memoryAdapter(store) },
    );
    const res = await post("/sign-up/email", ada);
    expect(res.status).toBe(200);
    const line = findCookie(res, COOKIE)!;
    expect(line).not.toMatch(/[\r\n]/);
    expect(line.split(";")[0]).not.toContain(" ");
    expect(res.headers.getSetCookie().some((c) => c.startsWith("admin="))).toBe(false);
    expect(cookieValue(res, COOKIE)).toBe(method);
    expect(store.user![0]!.lastLoginMethod).toBe(method);
  });

  it("a 1 MB custom method is refused by no one but stays one encoded cookie (the browser drops it)", async () => {
    const method = "m".repeat(1_000_000);
    const { post } = lastLoginInstance({ customResolveMethod: () => method });
    const res = await post("/sign-up/email", ada);
    expect(res.status).toBe(200);
    expect(cookieValue(res, COOKIE)).toBe(method);
  });

  it("a throwing customResolveMethod is logged and falls back to the built-in rules: the sign-in stands", async () => {
    const logged: string[] = [];
    const store: Record<string, Row[]> = {};
    const { post } = lastLoginInstance(
      {
        storeInDatabase: true,
        customResolveMethod: () => {
          throw new Error("resolver bug");
        },
      },
      {
        database: memoryAdapter(store),
        logger: { level: "error", log: (_l, m, ...a) => void logged.push([m, ...a.map(String)].join(" ")) },
      },
    );
    const res = await post("/sign-up/email", ada);
    expect(res.status).toBe(200);
    expect(cookieValue(res, COOKIE)).toBe("email");
    expect(rows(store)).toEqual({ user: 1, account: 1, session: 1 });
    expect(store.user![0]!.lastLoginMethod).toBe("email");
    expect(logged.some((m) => m.includes("customResolveMethod") && m.includes("resolver bug"))).toBe(true);
    // The password never reaches the log.
    expect(logged.join("\n")).not.toContain(ada.password);
  });
});

describe("a failing database", () => {
  it("the column update failing is logged; the sign-in and the cookie stand", async () => {
    const faults: FaultSwitch = { fault: null, failed: [] };
    const logged: string[] = [];
    const store: Record<string, Row[]> = {};
    const { post } = lastLoginInstance(
      { storeInDatabase: true },
      {
        database: faultyAdapter(memoryAdapter(store), faults),
        logger: { level: "error", log: (_l, m, ...a) => void logged.push([m, ...a.map(String)].join(" ")) },
      },
    );
    expect((await post("/sign-up/email", ada)).status).toBe(200);
    store.user![0]!.lastLoginMethod = "google";
    faults.fault = { method: "update", model: "user" };
    const res = await post("/sign-in/email", { email: ada.email, password: ada.password });
    faults.fault = null;
    expect(res.status).toBe(200);
    expect(faults.failed).toEqual(["update:user"]);
    expect(cookieValue(res, COOKIE)).toBe("email");
    expect(store.user![0]!.lastLoginMethod).toBe("google");
    expect(logged.join("\n")).toContain(FAULT_MESSAGE);
    expect(logged.join("\n")).not.toContain(ada.password);
  });

  it("a session that cannot be stored writes no cookie", async () => {
    const faults: FaultSwitch = { fault: null, failed: [] };
    const store: Record<string, Row[]> = {};
    const { post } = lastLoginInstance({}, { database: faultyAdapter(memoryAdapter(store), faults) });
    expect((await post("/sign-up/email", ada)).status).toBe(200);
    faults.fault = { method: "create", model: "session" };
    const res = await post("/sign-in/email", { email: ada.email, password: ada.password });
    faults.fault = null;
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(await res.text()).not.toContain(FAULT_MESSAGE);
    expect(findCookie(res, COOKIE)).toBeUndefined();
    expect(rows(store).session).toBe(1);
  });
});
