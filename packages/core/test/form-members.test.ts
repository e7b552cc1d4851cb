import { describe, expect, it } from "vitest";
import { endpoint, type LatchkeyPlugin } from "../src/index.ts";
import { testInstance } from "./support/instance.ts";

// `formMembers: "all"`: a route that must see repeated url-encoded members (RFC 6749 §3.1
// refuses them; RFC 8707 repeats `resource`) reads every value; others keep the last one.
const echo = (formMembers?: "all" | "last") =>
  endpoint("/echo-form", { method: "POST", allowedMediaTypes: ["application/x-www-form-urlencoded"], ...(formMembers ? { formMembers } : {}) }, (ctx) => ({
    body: ctx.body,
    keys: Object.keys(ctx.body as unknown as object),
    prototypeIntact: Object.getPrototypeOf(ctx.body) === Object.prototype,
  }));
const plugin = (formMembers?: "all" | "last"): LatchkeyPlugin => ({ id: "form-echo", endpoints: { echoForm: echo(formMembers) } });

function send(t: ReturnType<typeof testInstance>, body: string) {
  return t.request("/echo-form", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", origin: "http://localhost:3000" }, body });
}

describe("formMembers", () => {
  it('"all": a repeated member is every value in order; a single one stays a string', async () => {
    const t = testInstance({ plugins: [plugin("all")] });
    const res = await send(t, "client_id=a&client_id=b&resource=r1&grant_type=x&resource=r2&resource=r3");
    expect(res.status).toBe(200);
    expect((await res.json()).body).toEqual({ client_id: ["a", "b"], resource: ["r1", "r2", "r3"], grant_type: "x" });
  });

  it("the default keeps the last value, as the reference's reader does", async () => {
    for (const t of [testInstance({ plugins: [plugin()] }), testInstance({ plugins: [plugin("last")] })]) {
      const res = await send(t, "client_id=a&client_id=b");
      expect((await res.json()).body).toEqual({ client_id: "b" });
    }
  });

  it('a "__proto__" member is an own member and never the prototype', async () => {
    const t = testInstance({ plugins: [plugin("all")] });
    const res = await send(t, "__proto__=x&__proto__=y&a=1");
    const json = await res.json();
    expect(json.keys).toEqual(["__proto__", "a"]);
    expect(json.prototypeIntact).toBe(true);
  });

  it("query strings repeat the same way, __proto__ included", async () => {
    const t = testInstance({
      plugins: [{ id: "q", endpoints: { q: endpoint("/echo-query", { method: "GET" }, (ctx) => ({ keys: Object.keys(ctx.query as unknown as object), proto: Object.getPrototypeOf(ctx.query) === Object.prototype, q: ctx.query })) } }],
    });
    const res = await t.request("/echo-query?__proto__=1&__proto__=2&x=1&x=2");
    const json = await res.json();
    expect([json.keys, json.proto, json.q.x]).toEqual([["__proto__", "x"], true, ["1", "2"]]);
  });

  it("the body cap still applies", async () => {
    const t = testInstance({ plugins: [plugin("all")] });
    const res = await send(t, `a=${"x".repeat(1024 * 1024 + 1)}`);
    expect(res.status).toBe(413);
  });
});
