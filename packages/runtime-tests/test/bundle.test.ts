import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";

// The global setup already refuses a bundle that leaves any import to the runtime; these
// checks keep the file itself honest about it and about what workerd will accept.
describe("smoke bundle", () => {
  const code = readFileSync(join(inject("bundleDir"), "smoke.mjs"), "utf8");

  it("is one self-contained ESM file: no import or require of anything, node: or bare", () => {
    expect(code).not.toMatch(/^\s*import\s[^;]*from\s*["']/m);
    expect(code).not.toMatch(/\brequire\(\s*["']/);
    expect(code).not.toMatch(/\bimport\(\s*["']/);
  });

  it("exports only functions (workerd takes every named export as an entrypoint)", async () => {
    const mod = (await import(join(inject("bundleDir"), "smoke.mjs"))) as Record<string, unknown>;
    expect(Object.keys(mod).sort()).toEqual(["createSmokeHandler", "default"]);
    expect(typeof mod.createSmokeHandler).toBe("function");
  });
});
