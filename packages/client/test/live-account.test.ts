import { bearer } from "@latchkey/bearer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAuthClient, type FetchLike } from "../src/index.ts";
import { liveLatchkey, type LiveLatchkey } from "./support/live-server.ts";
import { recordingFetch } from "./support/recording-fetch.ts";

let server: LiveLatchkey;
beforeAll(async () => {
  server = await liveLatchkey({ plugins: [bearer()] });
});
afterAll(() => server.close());

let n = 0;
async function signedUp() {
  n += 1;
  const user = { name: `Account ${n}`, email: `account${n}@example.com`, password: "account-password-1" };
  const recorder = recordingFetch();
  const client = createAuthClient({ baseURL: server.origin, fetch: recorder.fetch });
  const signUp = await client.signUp.email(user);
  expect(signUp.error).toBeNull();
  return { client, recorder, user, token: signUp.data!.token!, userId: signUp.data!.user.id };
}

describe("account methods against a live Latchkey server", () => {
  it("updateUser, verifyPassword, setPassword", async () => {
    const { client, user } = await signedUp();
    expect(await client.updateUser({ name: "Renamed" })).toEqual({ data: { status: true }, error: null });
    expect((await client.getSession()).data?.user.name).toBe("Renamed");
    const refused = await client.updateUser({ email: "other@example.com" });
    expect(refused.error).toMatchObject({ status: 400, code: "EMAIL_CAN_NOT_BE_UPDATED" });

    expect(await client.verifyPassword({ password: user.password })).toEqual({
      data: { status: true },
      error: null,
    });
    expect((await client.verifyPassword({ password: "wrong-password-1" })).error).toMatchObject({
      status: 400,
      code: "INVALID_PASSWORD",
    });
    expect((await client.setPassword({ newPassword: "another-password-1" })).error).toMatchObject({
      status: 400,
      code: "PASSWORD_ALREADY_SET",
    });
  });

  it("changePassword with revokeOtherSessions: a new session, its cookie kept by the fetch", async () => {
    const { client, user, token } = await signedUp();
    const changed = await client.changePassword({
      currentPassword: user.password,
      newPassword: "changed-password-1",
      revokeOtherSessions: true,
    });
    expect(changed.error).toBeNull();
    expect(changed.data?.token).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(changed.data?.token).not.toBe(token);
    expect((await client.getSession()).data?.session.token).toBe(changed.data?.token);
    const signIn = await client.signIn.email({ email: user.email, password: "changed-password-1" });
    expect(signIn.error).toBeNull();
  });

  it("listSessions, revokeSession, revokeOtherSessions, revokeSessions", async () => {
    const { client, user, token } = await signedUp();
    const other = createAuthClient({ baseURL: server.origin, fetch: recordingFetch().fetch });
    const second = await other.signIn.email({ email: user.email, password: user.password });
    const third = await other.signIn.email({ email: user.email, password: user.password });
    const listed = await client.listSessions();
    expect(listed.error).toBeNull();
    expect(listed.data?.map((s) => s.token).sort()).toEqual(
      [token, second.data!.token, third.data!.token].sort(),
    );
    expect(listed.data?.[0]?.expiresAt).toBeInstanceOf(Date);

    expect(await client.revokeSession({ token: second.data!.token })).toEqual({
      data: { status: true },
      error: null,
    });
    expect((await client.listSessions()).data).toHaveLength(2);
    expect(await client.revokeOtherSessions()).toEqual({ data: { status: true }, error: null });
    expect((await client.listSessions()).data?.map((s) => s.token)).toEqual([token]);
    expect(await client.revokeSessions()).toEqual({ data: { status: true }, error: null });
    expect((await client.getSession()).data).toBeNull();
    expect((await client.listSessions()).error).toMatchObject({ status: 401 });
  });
});

describe("a cookieless client with the bearer plugin", () => {
  it("keeps the set-auth-token header through its fetch and sends it as Bearer", async () => {
    let token: string | null = null;
    // What a native app does: no cookie store, the token kept from `set-auth-token`.
    const fetchWithToken: FetchLike = async (url, init) => {
      const headers = new Headers(init.headers);
      if (token) headers.set("authorization", `Bearer ${token}`);
      const response = await fetch(url, { ...init, headers });
      token = response.headers.get("set-auth-token") ?? token;
      return response;
    };
    const client = createAuthClient({ baseURL: server.origin, fetch: fetchWithToken });
    const signUp = await client.signUp.email({
      name: "Native",
      email: "native@example.com",
      password: "native-password-1",
    });
    expect(token).toMatch(new RegExp(`^${signUp.data!.token}\\.`));
    const session = await client.getSession();
    expect(session.data?.session.token).toBe(signUp.data?.token);
    expect(await client.signOut()).toEqual({ data: { success: true }, error: null });
    // Whether that sign-out ends the session is core's business: Latchkey's /sign-out reads
    // only the cookie today (compat-tests › bearer.test.ts, known difference).
  });
});
