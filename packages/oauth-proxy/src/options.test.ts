import { describe, expect, it } from "vitest";
import { resolveOAuthProxyOptions } from "./options.js";

describe("oAuthProxy options", () => {
  it("maxAge defaults to 60 seconds; a negative or non-finite one is refused at start-up", () => {
    expect(resolveOAuthProxyOptions().maxAge).toBe(60);
    expect(resolveOAuthProxyOptions({ maxAge: 0 }).maxAge).toBe(0);
    expect(() => resolveOAuthProxyOptions({ maxAge: -1 })).toThrow(TypeError);
    expect(() => resolveOAuthProxyOptions({ maxAge: Number.NaN })).toThrow(TypeError);
  });

  it("productionURL and currentURL must be absolute URLs", () => {
    expect(() => resolveOAuthProxyOptions({ productionURL: "app.example.com" })).toThrow(TypeError);
    expect(() => resolveOAuthProxyOptions({ currentURL: "/preview" })).toThrow(TypeError);
    expect(resolveOAuthProxyOptions({ productionURL: "https://app.example.com/" }).productionURL).toBe(
      "https://app.example.com/",
    );
  });
});
