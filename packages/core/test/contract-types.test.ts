import { describe, expect, expectTypeOf, it } from "vitest";
import { createAuth, memoryAdapter, type SessionWithUser } from "../src/index.ts";
import { notes } from "./plugin-contract.test.ts";

// Type tests: `tsc` (the typecheck step) checks them; at run time they only build instances.
/** Holds calls that exist for the type checker only; never run. */
const typeOnly = (_call: () => unknown): void => undefined;

const base = { database: memoryAdapter(), secret: "s".repeat(40), baseURL: "http://localhost:3000" };

describe("auth.api and $Infer types", () => {
  it("core: getSession answers the session and user with configured additional fields, or null", () => {
    const auth = createAuth({
      ...base,
      user: { additionalFields: { role: { type: "string" }, nickname: { type: "string", required: false } } },
      session: { additionalFields: { device: { type: ["phone", "laptop"] as const } } },
    });
    expect(typeof auth.api.getSession).toBe("function");
    type Session = typeof auth.$Infer.Session;
    expectTypeOf<Awaited<ReturnType<typeof auth.api.getSession>>>().toEqualTypeOf<Session | null>();
    expectTypeOf<Session["user"]["role"]>().toEqualTypeOf<string>();
    expectTypeOf<Session["user"]["nickname"]>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf<Session["user"]["email"]>().toEqualTypeOf<string>();
    expectTypeOf<Session["session"]["device"]>().toEqualTypeOf<"phone" | "laptop">();
    expectTypeOf<typeof auth.$Infer.User>().toEqualTypeOf<Session["user"]>();
  });

  it("core: bodies are typed from the schemas; required fields are required", () => {
    const auth = createAuth(base);
    expectTypeOf(auth.api.signInEmail).parameter(0).toHaveProperty("body");
    typeOnly(() => {
      // @ts-expect-error: the body is required and needs email and password.
      void auth.api.signInEmail({ body: { email: "a@example.com" } });
      // @ts-expect-error: no argument at all is refused too.
      void auth.api.signInEmail();
    });
    expectTypeOf(auth.api.signOut).toBeCallableWith({ headers: new Headers() });
  });

  it("an endpoint that is not installed is a type error", () => {
    const auth = createAuth(base);
    // @ts-expect-error: the notes plugin is not installed here.
    void auth.api.addNote;
  });

  it("a plugin's endpoints join auth.api with their body types", () => {
    const auth = createAuth({ ...base, plugins: [notes()] });
    expectTypeOf(auth.api.addNote).toBeCallableWith({ body: { text: "hi" }, headers: {} });
    // @ts-expect-error: `text` is a string.
    typeOnly(() => auth.api.addNote({ body: { text: 1 } }));
    expectTypeOf<Awaited<ReturnType<typeof auth.api.listNotes>>>().toBeArray();
    expectTypeOf(auth.api.addNote).toBeCallableWith({ body: { text: "x" }, asResponse: true });
  });

  it("the session guard narrows ctx.context.session", () => {
    expectTypeOf<SessionWithUser["user"]["id"]>().toEqualTypeOf<string>();
  });
});
