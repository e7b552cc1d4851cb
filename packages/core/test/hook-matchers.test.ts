import { describe, expect, it } from "vitest";
import { createAuth, memoryAdapter, type HookEntry } from "../src/index.ts";
import { testInstance } from "./support/instance.ts";

const base = { database: memoryAdapter(), secret: "s".repeat(40), baseURL: "http://localhost:3000" };
const withHook = (hook: Omit<HookEntry, "handler">) =>
  createAuth({ ...base, plugins: [{ id: "h", hooks: { before: [{ ...hook, handler: () => undefined }] } }] });

describe("hook matchers", () => {
  it("a matcher entry that names no mounted endpoint is a TypeError at start", () => {
    expect(() => withHook({ matcher: ["signInEmial"] })).toThrow(
      new TypeError('A hook of plugin "h" names "signInEmial", which matches no mounted endpoint.'),
    );
    expect(() => withHook({ matcher: ["/sign-in/nowhere"] })).toThrow(TypeError);
    expect(() => withHook({ matcher: ["/two-factor/*"] })).toThrow(TypeError);
    // A reference-style function matcher cannot be checked: refused with what to write instead.
    expect(() => withHook({ matcher: (() => true) as unknown as "*" })).toThrow(/use `when`/);
  });

  it("names, paths and prefixes select endpoints; `when` narrows at call time", async () => {
    const seen: string[] = [];
    const record = (tag: string): HookEntry["handler"] => (ctx) => void seen.push(`${tag}:${ctx.path}`);
    const t = testInstance({
      plugins: [
        {
          id: "h",
          hooks: {
            before: [
              { matcher: ["signInEmail"], handler: record("name") },
              { matcher: ["/get-session"], handler: record("path") },
              { matcher: ["/sign-*"], handler: record("prefix") },
              { matcher: "*", when: (ctx) => ctx.method === "GET", handler: record("get") },
            ],
          },
        },
      ],
    });
    await t.post("/sign-in/email", { email: "a@example.com", password: "password123" });
    await t.request("/get-session");
    expect(seen).toEqual(["name:/sign-in/email", "prefix:/sign-in/email", "path:/get-session", "get:/get-session"]);
  });
});
