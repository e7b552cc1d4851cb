import { describe, expect, it } from "vitest";
import { countIn, PasswordCheckError } from "../src/range-query.ts";

describe("countIn reads the range answer", () => {
  const body = "0018A45C4D1DEF81644B54AB7F969B88D65:0\r\n1E4C9B93F3F0682250B6CF8331B7EE68FD8:3861493\r\nabc:12\n";
  it.each([
    ["1E4C9B93F3F0682250B6CF8331B7EE68FD8", 3861493],
    ["0018A45C4D1DEF81644B54AB7F969B88D65", 0],
    ["ABC", 12],
    ["FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF", 0],
  ])("%s → %i", (suffix, count) => {
    expect(countIn(body, suffix)).toBe(count);
  });
  it.each(["ABC:-1", "ABC:1e3", "ABC:", "ABC:99999999999999999999", "ABC:12x"])("%s is refused", (line) => {
    expect(() => countIn(line, "ABC")).toThrow(PasswordCheckError);
  });
});
