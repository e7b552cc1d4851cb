import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAuthClient } from "../src/index.ts";
import { liveLatchkey, type LiveLatchkey } from "./support/live-server.ts";
import { recordingFetch } from "./support/recording-fetch.ts";

let server: LiveLatchkey;
beforeAll(async () => {
  server = await liveLatchkey();
});
afterAll(() => server.close());

let n = 0;
const newUser = () => {
  n += 1;
  return { name: `Client ${n}`, email: `client${n}@example.com`, password: "client-password-1" };
};

function browserLike() {
  const recorder = recordingFetch();
  const client = createAuthClient({ baseURL: server.origin, fetch: recorder.fetch });
  return { client, recorder };
}

describe("core methods against a live Latchkey server", () => {
  it("signUp → getSession → signOut → signIn → getSession, with a cookie-keeping fetch", async () => {
    const { client, recorder } = browserLike();
    const user = newUser();
    const signUp = await client.signUp.email(user);
    expect(signUp.error).toBeNull();
    expect(signUp.data?.user).toMatchObject({
      name: user.name,
      email: user.email,
      emailVerified: false,
      image: null,
    });
    expect(signUp.data?.token).toMatch(/^[A-Za-z0-9]{32}$/);
    // ISO timestamps come back as Dates, as from the reference client.
    expect(signUp.data?.user.createdAt).toBeInstanceOf(Date);
    expect([...recorder.cookies.keys()]).toEqual(["better-auth.session_token"]);

    const session = await client.getSession();
    expect(session.error).toBeNull();
    expect(session.data?.session.token).toBe(signUp.data?.token);
    expect(session.data?.session.expiresAt).toBeInstanceOf(Date);

    expect(await client.signOut()).toEqual({ data: { success: true }, error: null });
    expect(recorder.cookies.size).toBe(0);
    expect(await client.getSession()).toEqual({ data: null, error: null });

    const signIn = await client.signIn.email({ email: user.email, password: user.password });
    expect(signIn.error).toBeNull();
    expect(signIn.data).toMatchObject({ redirect: false, user: { id: signUp.data?.user.id } });
    const again = await client.getSession();
    expect(again.data?.session.token).toBe(signIn.data?.token);

    expect(recorder.sent.map((r) => `${r.method} ${r.path}`)).toEqual([
      "POST /api/auth/sign-up/email",
      "GET /api/auth/get-session",
      "POST /api/auth/sign-out",
      "GET /api/auth/get-session",
      "POST /api/auth/sign-in/email",
      "GET /api/auth/get-session",
    ]);
    expect(recorder.sent[0]?.body).toEqual(user);
    expect(recorder.sent[2]?.body).toEqual({});
    expect(recorder.sent[1]?.body).toBeNull();
  });

  it("answers HTTP errors as { data: null, error } with status, statusText, code and message", async () => {
    const { client } = browserLike();
    const user = newUser();
    await client.signUp.email(user);
    const wrong = await client.signIn.email({ email: user.email, password: "not-the-password" });
    expect(wrong).toEqual({
      data: null,
      error: {
        status: 401,
        // @hono/node-server writes the standard reason phrase, not the Response's statusText.
        statusText: "Unauthorized",
        code: "INVALID_EMAIL_OR_PASSWORD",
        message: "Invalid email or password",
      },
    });
    const duplicate = await client.signUp.email(user);
    expect(duplicate.error).toMatchObject({ status: 422, code: "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL" });
    const invalid = await client.signUp.email({ ...newUser(), email: "not-an-email" });
    expect(invalid.error).toMatchObject({ status: 400, code: "VALIDATION_ERROR" });
    // An empty 404 body: status and status text only.
    const missing = await client.$fetch("/no-such-route", { method: "GET" });
    expect(missing).toEqual({ data: null, error: { status: 404, statusText: "Not Found" } });
  });

  it("authenticates with a Bearer token from fetchOptions.headers or per call, without cookies", async () => {
    const { client, recorder } = browserLike();
    const signUp = await client.signUp.email(newUser());
    const token = signUp.data!.token!;
    // Without the bearer() plugin the server takes only the signed value the cookie carries.
    const signed = decodeURIComponent(recorder.cookies.get("better-auth.session_token")!);
    const bare = createAuthClient({
      baseURL: server.origin,
      fetchOptions: { headers: { authorization: `Bearer ${token}` } },
    });
    expect((await bare.getSession()).data).toBeNull();
    const bearer = createAuthClient({
      baseURL: server.origin,
      fetchOptions: { headers: { authorization: `Bearer ${signed}` } },
    });
    const viaOptions = await bearer.getSession();
    expect(viaOptions.data?.session.token).toBe(token);

    const anonymous = createAuthClient({ baseURL: server.origin });
    expect((await anonymous.getSession()).data).toBeNull();
    const perCall = await anonymous.getSession(undefined, { headers: { authorization: `Bearer ${signed}` } });
    expect(perCall.data?.user.id).toBe(signUp.data?.user.id);
  });

  it("sends getSession flags as the query string, leaving false ones out", async () => {
    const { client, recorder } = browserLike();
    await client.signUp.email(newUser());
    const res = await client.getSession({ disableRefresh: true, disableCookieCache: false });
    expect(res.data?.user).toBeDefined();
    expect(recorder.last().query).toEqual({ disableRefresh: "true" });
  });

  it("gives plugin methods the same transport: cookies, errors, base URL", async () => {
    const { recorder } = browserLike();
    const client = createAuthClient({
      baseURL: server.origin,
      fetch: recorder.fetch,
      plugins: [
        {
          id: "probe",
          methods: (call) => ({
            ok: () => call<{ ok: boolean }>("/ok", { method: "GET" }),
            signIn: {
              nowhere: (body: { email: string }) => call<never>("/sign-in/nowhere", { method: "POST", body }),
            },
          }),
        },
      ],
    });
    expect(await client.ok()).toEqual({ data: { ok: true }, error: null });
    const nowhere = await client.signIn.nowhere({ email: "a@example.com" });
    expect(nowhere.error?.status).toBe(404);
    expect(recorder.last()).toMatchObject({
      method: "POST",
      path: "/api/auth/sign-in/nowhere",
      body: { email: "a@example.com" },
    });
    // The core group survives the plugin's addition to it.
    const user = newUser();
    expect((await client.signUp.email(user)).error).toBeNull();
    expect((await client.signIn.email({ email: user.email, password: user.password })).error).toBeNull();
  });
});
