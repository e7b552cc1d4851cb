import { describe, expect, it } from "vitest";
import { RouteTable } from "../src/auth/route-table.ts";

describe("RouteTable (the auth app's router)", () => {
  const table = new RouteTable<string>();
  table.add("GET", "/api/auth/get-session", "get-session");
  table.add("POST", "/api/auth/get-session", "post-session");
  table.add("GET", "/api/auth/callback/:id", "callback");
  table.add("GET", "/api/auth/callback/:id/oauth-proxy", "proxy");
  table.add("GET", "/api/auth/.well-known/openid-configuration", "discovery");

  it("serves literal paths by method, parameters by whole segment", () => {
    expect(table.match("GET", "/api/auth/get-session")).toEqual([[["get-session", {}]]]);
    expect(table.match("POST", "/api/auth/get-session")).toEqual([[["post-session", {}]]]);
    expect(table.match("GET", "/api/auth/callback/github")).toEqual([[["callback", { id: "github" }]]]);
    expect(table.match("GET", "/api/auth/callback/github/oauth-proxy")).toEqual([[["proxy", { id: "github" }]]]);
    expect(table.match("GET", "/api/auth/.well-known/openid-configuration")).toEqual([[["discovery", {}]]]);
  });

  it("matches nothing for other methods, empty parameters, extra or missing segments and other spellings", () => {
    for (const [method, path] of [
      ["DELETE", "/api/auth/get-session"],
      ["GET", "/api/auth/callback/"],
      ["GET", "/api/auth/callback"],
      ["GET", "/api/auth/callback/a/b"],
      ["GET", "/api/auth/get-session/"],
      ["GET", "/api/auth/GET-SESSION"],
      ["GET", "/api/auth/get%2Dsession"],
    ] as const) {
      expect(table.match(method, path)).toEqual([[]]);
    }
  });

  it("refuses paths with anything but literal segments and :params", () => {
    for (const path of ["/a/*", "/a/:id{[0-9]+}", "/a/:id?", "no-slash", "/a b"]) {
      expect(() => new RouteTable().add("GET", path, "x")).toThrow(TypeError);
    }
  });
});
