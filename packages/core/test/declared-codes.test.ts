import { describe, expect, it } from "vitest";
import { APIError, applicationCall, defineErrorCodes, endpoint } from "../src/index.ts";
import { testInstance } from "./support/instance.ts";

const CODES = defineErrorCodes({ DECLARED: "A declared failure" });

const failing = {
  id: "failing",
  errorCodes: CODES,
  endpoints: {
    declared: endpoint("/fail/declared", { method: "GET" }, () => {
      throw CODES.fail("DECLARED", "BAD_REQUEST");
    }),
    undeclared: endpoint("/fail/undeclared", { method: "GET" }, () => {
      throw APIError.from("BAD_REQUEST", "NOBODY_DECLARED_THIS", "Oops");
    }),
    // A plugin calling an application callback (a sender, a hook) that throws its own code.
    fromCallback: endpoint("/fail/callback", { method: "GET" }, async () => {
      await applicationCall(() => {
        throw APIError.from("CONFLICT", "APP_CHOSEN_CODE", "The application said no");
      });
      return { unreachable: true };
    }),
    statusOnly: endpoint("/fail/status", { method: "GET" }, () => {
      throw new APIError("FORBIDDEN", { message: "No", code: "FORBIDDEN" });
    }),
  },
};

describe("declared error codes", () => {
  it("defineErrorCodes gives the map (for $ERROR_CODES) and a typed fail", async () => {
    expect({ ...CODES }).toEqual({ DECLARED: "A declared failure" });
    const t = testInstance({ plugins: [failing] });
    expect(t.auth.$ERROR_CODES.DECLARED).toBe("A declared failure");
    expect("fail" in t.auth.$ERROR_CODES).toBe(false);
    const res = await t.request("/fail/declared");
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ code: "DECLARED", message: "A declared failure" });
    expect((await t.request("/fail/status")).status).toBe(403);
  });

  it("in test mode an undeclared code is a logged 500, so a test reaching it fails", async () => {
    const logged: string[] = [];
    const t = testInstance({
      plugins: [failing],
      logger: { log: (_level, message, ...args) => void logged.push(message, ...args.map(String)) },
    });
    expect((await t.request("/fail/undeclared")).status).toBe(500);
    expect(logged.join("\n")).toContain('undeclared error code "NOBODY_DECLARED_THIS"');
  });

  it("a code the application's callback threw, run through applicationCall, passes as it is", async () => {
    const t = testInstance({ plugins: [failing] });
    const res = await t.request("/fail/callback");
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ code: "APP_CHOSEN_CODE", message: "The application said no" });
  });
});
