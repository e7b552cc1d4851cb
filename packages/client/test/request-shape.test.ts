import { describe, expect, it } from "vitest";
import { createAuthClient, type AuthClient } from "../src/index.ts";
import { recordingFetch } from "./support/recording-fetch.ts";

const json = (body: unknown, status = 200, statusText = ""): Response =>
  new Response(JSON.stringify(body), { status, statusText, headers: { "content-type": "application/json" } });

function offline(answer: (request: Request) => Response | Promise<Response> = () => json({})) {
  const recorder = recordingFetch(answer);
  return { client: createAuthClient({ baseURL: "https://auth.example", fetch: recorder.fetch }), recorder };
}

type Case = [
  name: string,
  send: (c: AuthClient) => Promise<unknown>,
  method: string,
  path: string,
  sent: unknown,
];
const id = { accountId: "acc_1" };
const social = { provider: "github", callbackURL: "/dashboard" };
const legacy = { providerId: "acme", callbackURL: "/dashboard" };

// Method, route and payload of every core and account method (reference core.md §9, spec client table).
const cases: Case[] = [
  [
    "signUp.email",
    (c) => c.signUp.email({ name: "A", email: "a@x.io", password: "p" }),
    "POST",
    "/sign-up/email",
    { name: "A", email: "a@x.io", password: "p" },
  ],
  [
    "signIn.email",
    (c) => c.signIn.email({ email: "a@x.io", password: "p" }),
    "POST",
    "/sign-in/email",
    { email: "a@x.io", password: "p" },
  ],
  ["signIn.social", (c) => c.signIn.social(social), "POST", "/sign-in/social", social],
  ["signIn.oauth2", (c) => c.signIn.oauth2(legacy), "POST", "/sign-in/oauth2", legacy],
  ["oauth2.link", (c) => c.oauth2.link(legacy), "POST", "/oauth2/link", legacy],
  ["getSession", (c) => c.getSession(), "GET", "/get-session", {}],
  ["signOut", (c) => c.signOut(), "POST", "/sign-out", {}],
  ["listAccounts", (c) => c.listAccounts(), "GET", "/list-accounts", {}],
  ["getAccessToken", (c) => c.getAccessToken(id), "POST", "/get-access-token", id],
  ["refreshToken", (c) => c.refreshToken(id), "POST", "/refresh-token", id],
  ["accountInfo", (c) => c.accountInfo(id), "GET", "/account-info", id],
  ["unlinkAccount", (c) => c.unlinkAccount(id), "POST", "/unlink-account", id],
  ["linkSocial", (c) => c.linkSocial(social), "POST", "/link-social", social],
  ["updateUser", (c) => c.updateUser({ name: "B" }), "POST", "/update-user", { name: "B" }],
  ["updateSession", (c) => c.updateSession({ theme: "dark" }), "POST", "/update-session", { theme: "dark" }],
  [
    "changePassword",
    (c) => c.changePassword({ currentPassword: "p", newPassword: "q" }),
    "POST",
    "/change-password",
    { currentPassword: "p", newPassword: "q" },
  ],
  [
    "changeEmail",
    (c) => c.changeEmail({ newEmail: "b@x.io" }),
    "POST",
    "/change-email",
    { newEmail: "b@x.io" },
  ],
  ["setPassword", (c) => c.setPassword({ newPassword: "q" }), "POST", "/set-password", { newPassword: "q" }],
  [
    "verifyPassword",
    (c) => c.verifyPassword({ password: "p" }),
    "POST",
    "/verify-password",
    { password: "p" },
  ],
  ["deleteUser", (c) => c.deleteUser(), "POST", "/delete-user", {}],
  ["listSessions", (c) => c.listSessions(), "GET", "/list-sessions", {}],
  ["revokeSession", (c) => c.revokeSession({ token: "t" }), "POST", "/revoke-session", { token: "t" }],
  ["revokeSessions", (c) => c.revokeSessions(), "POST", "/revoke-sessions", {}],
  ["revokeOtherSessions", (c) => c.revokeOtherSessions(), "POST", "/revoke-other-sessions", {}],
  [
    "sendVerificationEmail",
    (c) => c.sendVerificationEmail({ email: "a@x.io" }),
    "POST",
    "/send-verification-email",
    { email: "a@x.io" },
  ],
  [
    "verifyEmail",
    (c) => c.verifyEmail({ token: "jwt", callbackURL: "/done" }),
    "GET",
    "/verify-email",
    { token: "jwt", callbackURL: "/done" },
  ],
  [
    "requestPasswordReset",
    (c) => c.requestPasswordReset({ email: "a@x.io", redirectTo: "/reset" }),
    "POST",
    "/request-password-reset",
    { email: "a@x.io", redirectTo: "/reset" },
  ],
  [
    "resetPassword",
    (c) => c.resetPassword({ newPassword: "q", token: "t" }),
    "POST",
    "/reset-password",
    { newPassword: "q", token: "t" },
  ],
];

describe("what each method sends", () => {
  it.each(cases)("%s → %s %s", async (_, send, method, path, sent) => {
    const { client, recorder } = offline();
    await send(client);
    const request = recorder.last();
    expect(request.method).toBe(method);
    expect(request.path).toBe(`/api/auth${path}`);
    if (method === "GET") {
      expect(request.body).toBeNull();
      expect(request.query).toEqual(sent);
    } else {
      expect(request.body).toEqual(sent);
      expect(request.query).toEqual({});
      expect(request.headers.get("content-type")).toBe("application/json");
    }
  });

  it("covers every method of the client", () => {
    const { client } = offline();
    const leaves = (value: object, prefix = ""): string[] =>
      Object.entries(value).flatMap(([key, v]) =>
        typeof v === "function" ? [`${prefix}${key}`] : leaves(v as object, `${prefix}${key}.`),
      );
    expect(
      leaves(client)
        .filter((name) => name !== "$fetch")
        .sort(),
    ).toEqual(cases.map(([name]) => name).sort());
  });

  it("sends credentials: include by default, headers from fetchOptions and per call, and the signal", async () => {
    const recorder = recordingFetch(() => json(null));
    const client = createAuthClient({
      baseURL: "https://auth.example",
      fetch: recorder.fetch,
      fetchOptions: { headers: { "x-app": "one", authorization: "Bearer a" } },
    });
    const controller = new AbortController();
    await client.getSession(undefined, { headers: { authorization: "Bearer b" }, signal: controller.signal });
    const sent = recorder.last();
    expect(sent.credentials).toBe("include");
    expect(sent.headers.get("x-app")).toBe("one");
    expect(sent.headers.get("authorization")).toBe("Bearer b");

    const omit = createAuthClient({
      baseURL: "https://auth.example",
      fetch: recorder.fetch,
      fetchOptions: { credentials: "omit" },
    });
    await omit.getSession();
    expect(recorder.last().credentials).toBe("omit");
  });
});

describe("base URL", () => {
  it.each([
    [{ baseURL: "https://auth.example" }, "https://auth.example/api/auth/ok"],
    [{ baseURL: "https://auth.example/" }, "https://auth.example/api/auth/ok"],
    [{ baseURL: "https://auth.example", basePath: "/auth/" }, "https://auth.example/auth/ok"],
    [{ baseURL: "https://auth.example", basePath: "/" }, "https://auth.example/ok"],
    // A baseURL with a path is the full auth URL (the reference client's rule).
    [{ baseURL: "https://app.example/custom/auth/" }, "https://app.example/custom/auth/ok"],
    [{ baseURL: "https://app.example/custom", basePath: "/ignored" }, "https://app.example/custom/ok"],
    [{}, "/api/auth/ok"],
  ])("%j → %s", async (options, expected) => {
    const urls: string[] = [];
    const client = createAuthClient({
      ...options,
      fetch: async (url) => (urls.push(url), json({ ok: true })),
    });
    await client.$fetch("/ok", { method: "GET" });
    expect(urls).toEqual([expected]);
  });

  it("refuses a baseURL that is not an absolute http(s) URL", () => {
    expect(() => createAuthClient({ baseURL: "auth.example" })).toThrow(TypeError);
    expect(() => createAuthClient({ baseURL: "ftp://auth.example" })).toThrow(TypeError);
  });
});

describe("reading answers", () => {
  it("revives ISO timestamps as Dates and drops __proto__ keys", async () => {
    const body = '{"at":"2026-01-02T03:04:05.678Z","name":"2026","__proto__":{"polluted":true}}';
    const { client } = offline(() => new Response(body, { headers: { "content-type": "application/json" } }));
    const { data } = await client.$fetch<Record<string, unknown>>("/x", { method: "GET" });
    expect(data?.at).toEqual(new Date("2026-01-02T03:04:05.678Z"));
    expect(data?.name).toBe("2026");
    expect(Object.keys(data!)).toEqual(["at", "name"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("an empty 2xx body is null data; a text body is the text", async () => {
    expect(await offline(() => new Response(null)).client.$fetch("/x", { method: "GET" })).toEqual({
      data: null,
      error: null,
    });
    expect(await offline(() => new Response("<p>hi</p>")).client.$fetch("/x", { method: "GET" })).toEqual({
      data: "<p>hi</p>",
      error: null,
    });
  });

  it("an error body's fields, then status and statusText; a non-JSON error body gives those two only", async () => {
    const coded = offline(() => json({ code: "X", message: "m", status: "spoofed" }, 403, "FORBIDDEN"));
    expect(await coded.client.$fetch("/x", { method: "POST" })).toEqual({
      data: null,
      error: { code: "X", message: "m", status: 403, statusText: "FORBIDDEN" },
    });
    const text = offline(() => new Response("Not Found", { status: 404, statusText: "Not Found" }));
    expect(await text.client.$fetch("/x", { method: "GET" })).toEqual({
      data: null,
      error: { status: 404, statusText: "Not Found" },
    });
  });

  it("rejects on a network failure (only HTTP errors become { error })", async () => {
    const client = createAuthClient({
      baseURL: "https://auth.example",
      fetch: () => Promise.reject(new TypeError("fetch failed")),
    });
    await expect(client.getSession()).rejects.toThrow("fetch failed");
  });
});
