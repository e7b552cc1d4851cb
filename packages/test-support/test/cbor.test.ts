import { describe, expect, it } from "vitest";
import { encodeCbor, type CborValue } from "../src/webauthn/cbor.ts";

const hex = (value: CborValue): string => Buffer.from(encodeCbor(value)).toString("hex");

describe("encodeCbor: RFC 8949 Appendix A vectors", () => {
  it.each<[CborValue, string]>([
    [0, "00"],
    [23, "17"],
    [24, "1818"],
    [100, "1864"],
    [1000, "1903e8"],
    [1000000, "1a000f4240"],
    [-1, "20"],
    [-10, "29"],
    [-100, "3863"],
    [-1000, "3903e7"],
    ["", "60"],
    ["a", "6161"],
    ["IETF", "6449455446"],
    ["ü", "62c3bc"],
    [Uint8Array.of(1, 2, 3, 4), "4401020304"],
    [{}, "a0"],
    [new Map([[1, 2], [3, 4]]), "a201020304"],
    [{ a: "A", b: "B" }, "a26161614161626142"],
  ])("%j → %s", (value, expected) => {
    expect(hex(value)).toBe(expected);
  });
});
