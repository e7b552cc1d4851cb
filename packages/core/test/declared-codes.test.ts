import { describe, expect, it } from "vitest";
import { APIError, defineErrorCodes, endpoint } from "../src/index.ts";
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
});
