import * as v from "valibot";
import { describe, expect, it } from "vitest";
import {
  createAuth,
  defineErrorCodes,
  endpoint,
  memoryAdapter,
  sessionMiddleware,
  type LatchkeyPlugin,
} from "../src/index.ts";
import { cookiePair, findCookie, testInstance } from "./support/instance.ts";

export const NOTES_ERROR_CODES = defineErrorCodes({
  NOTE_TOO_LONG: "Note is too long",
  NOTE_BLOCKED: "Blocked by a hook",
});

const addNote = endpoint(
  "/notes/add",
  { method: "POST", body: v.object({ text: v.string() }), use: [sessionMiddleware] },
  async (ctx) => {
    if (ctx.body.text.length > 20) throw NOTES_ERROR_CODES.fail("NOTE_TOO_LONG", "BAD_REQUEST");
    const userId = ctx.context.session.user.id;
    return ctx.context.internalAdapter.create("note", { text: ctx.body.text, userId });
  },
);

const listNotes = endpoint("/notes/list", { method: "GET", use: [sessionMiddleware] }, async (ctx) =>
  ctx.context.adapter.findMany({ model: "note", where: [{ field: "userId", value: ctx.context.session.user.id }] }),
);

/** The plugin object `notes()` returns. */
export type NotesPlugin = LatchkeyPlugin<"notes", { addNote: typeof addNote; listNotes: typeof listNotes }>;

/** A small plugin that uses every part of the contract: a table, endpoints, hooks, error codes. */
export function notes(): NotesPlugin {
  return {
    id: "notes",
    schema: {
      note: {
        fields: {
          text: { type: "string", required: true },
          userId: { type: "string", required: true, references: { model: "user", field: "id" } },
        },
      },
      user: { fields: { noteCount: { type: "number", required: false, defaultValue: 0, input: false } } },
    },
    errorCodes: NOTES_ERROR_CODES,
    endpoints: { addNote, listNotes },
    hooks: {
      before: [
        {
          matcher: ["addNote"],
          handler: (ctx) => {
            const body = ctx.body as { text?: unknown };
            if (body.text === "shout") return { context: { body: { text: "SHOUT" } } };
            if (body.text === "blocked")
              throw NOTES_ERROR_CODES.fail("NOTE_BLOCKED", "FORBIDDEN");
            return undefined;
          },
        },
      ],
      after: [
        {
          matcher: ["/ok"],
          handler: (ctx) => ({ ...(ctx.context.returned as object), notes: true }),
        },
      ],
    },
  };
}

describe("plugin contract", () => {
  it("adds a table, routes, hooks and an error code", async () => {
    const t = testInstance({ plugins: [notes()] });
    expect(t.auth.$ERROR_CODES.NOTE_TOO_LONG).toBe("Note is too long");
    expect(Object.keys(t.auth.$context.schema)).toContain("note");
    expect(t.auth.$context.schema.user!.fields.noteCount).toBeDefined();

    const signUp = await t.post("/sign-up/email", {
      name: "N",
      email: "n@example.com",
      password: "password123",
    });
    expect((await signUp.json()).user.noteCount).toBe(0);
    const cookie = cookiePair(findCookie(signUp, "better-auth.session_token")!);

    expect((await t.post("/notes/add", { text: "hello" })).status).toBe(401);
    const added = await t.post("/notes/add", { text: "hello" }, { cookie });
    expect(await added.json()).toMatchObject({ text: "hello" });
    const shouted = await t.post("/notes/add", { text: "shout" }, { cookie });
    expect(await shouted.json()).toMatchObject({ text: "SHOUT" });
    const blocked = await t.post("/notes/add", { text: "blocked" }, { cookie });
    expect(blocked.status).toBe(403);
    expect(await blocked.json()).toEqual({ code: "NOTE_BLOCKED", message: "Blocked by a hook" });
    const long = await t.post("/notes/add", { text: "x".repeat(30) }, { cookie });
    expect(await long.json()).toEqual({ code: "NOTE_TOO_LONG", message: "Note is too long" });
    const list = await (await t.request("/notes/list", { headers: { cookie } })).json();
    expect(list.map((n: { text: string }) => n.text)).toEqual(["hello", "SHOUT"]);
    expect(await (await t.request("/ok")).json()).toEqual({ ok: true, notes: true });
  });

  it("exposes endpoints on auth.api through the same validation and hooks", async () => {
    const t = testInstance({ plugins: [notes()] });
    const { headers } = await t.auth.api.signUpEmail({
      body: { name: "N", email: "api@example.com", password: "password123" },
      returnHeaders: true,
    });
    const cookie = cookiePair(headers.getSetCookie()[0]!);
    const signed = decodeURIComponent(cookie.split("=")[1]!);
    // @ts-expect-error: `text` is a string; the call goes through validation all the same.
    await expect(t.auth.api.addNote({ body: { text: 1 }, headers: { cookie } })).rejects.toMatchObject({
      status: 400,
      body: {
        code: "VALIDATION_ERROR",
        message: "[body.text] Invalid input: expected string, received number",
      },
    });
    expect(await t.auth.api.addNote({ body: { text: "shout" }, headers: { cookie } })).toMatchObject({
      text: "SHOUT",
    });
    const session = await t.auth.api.getSession({ headers: { authorization: `Bearer ${signed}` } });
    expect(session?.user.email).toBe("api@example.com");
    await expect(t.auth.api.getSession({})).rejects.toMatchObject({ status: 400 });
  });

  it("runs user hooks before plugin hooks and lets a before hook answer instead", async () => {
    const order: string[] = [];
    const t = testInstance({
      hooks: {
        before: (ctx) => {
          order.push(`user:${ctx.path}`);
          return ctx.path === "/sign-up/email" && (ctx.body as { name?: string }).name === "stop"
            ? { stopped: true }
            : undefined;
        },
      },
      plugins: [
        {
          id: "tracer",
          hooks: {
            before: [{ matcher: "*", handler: (ctx) => void order.push(`plugin:${ctx.path}`) }],
          },
        },
      ],
    });
    await t.request("/ok");
    expect(order).toEqual(["user:/ok", "plugin:/ok"]);
    const res = await t.post("/sign-up/email", {
      name: "stop",
      email: "s@example.com",
      password: "password123",
    });
    expect(await res.json()).toEqual({ stopped: true });
    expect(t.count("user")).toBe(0);
  });

  it("refuses duplicate routes, endpoint names, tables, plugin ids and conflicting error codes", () => {
    const base = { database: memoryAdapter(), secret: "s".repeat(40), baseURL: "http://localhost:3000" };
    const route = (name: string, path: string) => ({ [name]: endpoint(path, { method: "GET" }, () => null) });
    expect(() => createAuth({ ...base, plugins: [{ id: "a", endpoints: route("x", "/ok") }] })).toThrow(/GET \/ok/);
    expect(() =>
      createAuth({
        ...base,
        plugins: [
          { id: "a", endpoints: route("x", "/a") },
          { id: "b", endpoints: route("x", "/b") },
        ],
      }),
    ).toThrow(/"x"/);
    expect(() => createAuth({ ...base, plugins: [{ id: "a", endpoints: route("signOut", "/a") }] })).toThrow(
      /"signOut"/,
    );
    const table = { thing: { fields: { n: { type: "number" as const } } } };
    expect(() =>
      createAuth({
        ...base,
        plugins: [
          { id: "a", schema: table },
          { id: "b", schema: table },
        ],
      }),
    ).toThrow(/table "thing"/);
    expect(() => createAuth({ ...base, plugins: [{ id: "a" }, { id: "a" }] })).toThrow(/installed twice/);
    expect(() =>
      createAuth({ ...base, plugins: [{ id: "a", errorCodes: { INVALID_TOKEN: "Something else" } }] }),
    ).toThrow(/INVALID_TOKEN/);
    expect(() =>
      createAuth({
        ...base,
        plugins: [{ id: "a", schema: { user: { fields: { email: { type: "number" } } } } }],
      }),
    ).toThrow(/user\.email/);
  });

  it("lets onRequest answer and onResponse replace", async () => {
    const t = testInstance({
      plugins: [
        {
          id: "gate",
          onRequest: (request) =>
            request.headers.get("x-block")
              ? { response: new Response("blocked", { status: 418 }) }
              : undefined,
          onResponse: (response) => {
            const headers = new Headers(response.headers);
            headers.set("x-gate", "seen");
            return { response: new Response(response.body, { status: response.status, headers }) };
          },
        },
      ],
    });
    expect((await t.request("/ok", { headers: { "x-block": "1" } })).status).toBe(418);
    expect((await t.request("/ok")).headers.get("x-gate")).toBe("seen");
  });
});
