import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { fieldValueSchema } from "../src/index.ts";

const accepts = (type: Parameters<typeof fieldValueSchema>[0]["type"], value: unknown): boolean =>
  v.safeParse(fieldValueSchema({ type }), value).success;

describe("fieldValueSchema", () => {
  it("accepts values of the field's type and refuses others", () => {
    expect(accepts("string", "x")).toBe(true);
    expect(accepts("string", 1)).toBe(false);
    expect(accepts("number", 1)).toBe(true);
    expect(accepts("number", "1")).toBe(false);
    expect(accepts("boolean", false)).toBe(true);
    expect(accepts("date", new Date())).toBe(true);
    expect(accepts("date", "2026-11-26T12:00:00.000Z")).toBe(true);
    expect(accepts("date", "yesterday")).toBe(false);
    expect(accepts("string[]", ["a"])).toBe(true);
    expect(accepts("string[]", [1])).toBe(false);
    expect(accepts("number[]", [1, 2])).toBe(true);
    expect(accepts("json", { any: ["thing"] })).toBe(true);
    expect(accepts(["red", "blue"], "red")).toBe(true);
    expect(accepts(["red", "blue"], "green")).toBe(false);
  });
});
