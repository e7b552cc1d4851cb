import { describe, expect, it } from "vitest";
import { APIError, parseInput } from "../src/index.ts";
import { testInstance } from "./support/instance.ts";

/** `parseInput` on the public entry: plugin routes that create users read additional fields with it. */
describe("parseInput (public entry)", () => {
  const t = testInstance({
    user: {
      additionalFields: {
        plan: { type: "string", defaultValue: "free" },
        role: { type: "string", input: false },
        team: { type: "string", required: true },
      },
    },
  });
  const ctx = t.auth.$context;

  it("keeps configured fields, fills defaults on create and ignores unknown keys", () => {
    expect(parseInput(ctx, "user", { team: "a", other: 1 }, "create")).toEqual({ plan: "free", team: "a" });
    expect(parseInput(ctx, "user", { plan: "pro" }, "update")).toEqual({ plan: "pro" });
  });

  it("refuses a field the client may not set and a missing required one", () => {
    expect(() => parseInput(ctx, "user", { team: "a", role: "admin" }, "create")).toThrow(APIError);
    expect(() => parseInput(ctx, "user", {}, "create")).toThrow(/team is required/);
  });
});
