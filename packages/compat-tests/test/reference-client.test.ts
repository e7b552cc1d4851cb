import { createAuthClient } from "better-auth/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jarFetch } from "./support/client-fetch.ts";
import { BASE_PATH, createPair, type Pair } from "./support/instances.ts";
import { normalizeJson } from "./support/normalize.ts";
import { listen, type LiveServer } from "./support/server.ts";

/**
 * The reference's own JS client, unchanged, against a real listening server: Latchkey, and
 * the reference itself as the control. Each server has its own pair whose baseURL is the
 * server's real address, so cookies, origins and paths are those a deployment would see.
 */
interface Live {
  server: LiveServer;
  pair: Pair;
}

async function liveServer(side: "reference" | "latchkey"): Promise<Live> {
  const server = await listen();
  const pair = await createPair({ baseURL: server.origin });
  server.use(pair[side]);
  return { server, pair };
}

function client(live: Live): { auth: ReturnType<typeof createAuthClient>; jar: ReturnType<typeof jarFetch> } {
  const jar = jarFetch();
  const auth = createAuthClient({
    baseURL: `${live.server.origin}${BASE_PATH}`,
    fetchOptions: { customFetchImpl: jar.fetch },
  });
  return { auth, jar };
}

interface Person {
  name: string;
  email: string;
  password: string;
}
const person = (n: number): Person => ({
  name: `Client User ${n}`,
  email: `client.user${n}@example.com`,
  password: "client-password-1",
});

/** The whole flow through the client; returns every `{ data, error }` for comparison. */
async function flow(live: Live, user: Person): Promise<Record<string, unknown>> {
  const { auth, jar } = client(live);
  const signUp = await auth.signUp.email(user);
  expect(signUp.error).toBeNull();
  expect(signUp.data?.user).toMatchObject({
    name: user.name,
    email: user.email,
    emailVerified: false,
    image: null,
  });
  expect(signUp.data?.token).toMatch(/^[A-Za-z0-9]{32}$/);
  expect(jar.jar.names()).toEqual(["better-auth.session_token"]);

  const signIn = await auth.signIn.email({ email: user.email, password: user.password });
  expect(signIn.error).toBeNull();
  expect(signIn.data).toMatchObject({
    redirect: false,
    user: { id: signUp.data?.user.id, email: user.email },
  });
  const token = signIn.data?.token;
  expect(token).toMatch(/^[A-Za-z0-9]{32}$/);

  const session = await auth.getSession();
  expect(session.error).toBeNull();
  expect(session.data?.user.id).toBe(signUp.data?.user.id);
  expect(session.data?.session.token).toBe(token);

  const signOut = await auth.signOut();
  expect(signOut.error).toBeNull();
  expect(signOut.data).toEqual({ success: true });
  expect(jar.jar.names()).toEqual([]);

  const after = await auth.getSession();
  expect(after.error).toBeNull();
  expect(after.data).toBeNull();

  const wrong = await auth.signIn.email({ email: user.email, password: "not-the-password" });
  expect(wrong.data).toBeNull();
  const duplicate = await auth.signUp.email(user);
  expect(duplicate.data).toBeNull();

  return {
    calls: jar.calls,
    signUp: signUp.data,
    signIn: signIn.data,
    session: session.data,
    signOut: signOut.data,
    after: after.data,
    wrong: wrong.error,
    duplicate: duplicate.error,
  };
}

describe("better-auth/client against a live server", () => {
  let latchkey: Live;
  let reference: Live;
  beforeAll(async () => {
    [latchkey, reference] = await Promise.all([liveServer("latchkey"), liveServer("reference")]);
  });
  afterAll(async () => {
    for (const live of [latchkey, reference]) {
      await live.server.close();
      live.pair.close();
    }
  });

  it("runs signUp → signIn → getSession → signOut → getSession against Latchkey unchanged", async () => {
    const result = await flow(latchkey, person(1));
    expect(result.calls).toEqual([
      "POST /api/auth/sign-up/email → 200",
      "POST /api/auth/sign-in/email → 200",
      "GET /api/auth/get-session → 200",
      "POST /api/auth/sign-out → 200",
      "GET /api/auth/get-session → 200",
      "POST /api/auth/sign-in/email → 401",
      "POST /api/auth/sign-up/email → 422",
    ]);
    expect(result.wrong).toMatchObject({
      status: 401,
      code: "INVALID_EMAIL_OR_PASSWORD",
      message: "Invalid email or password",
    });
    expect(result.duplicate).toMatchObject({ status: 422, code: "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL" });
  });

  it("gives the client the same data and errors as the reference server does", async () => {
    // The same new person on each server (each has its own database file).
    const [ours, theirs] = [await flow(latchkey, person(2)), await flow(reference, person(2))];
    expect(Object.keys(ours)).toHaveLength(8);
    for (const [key, value] of Object.entries(theirs)) {
      // Ids, tokens and timestamps are minted per server: compare their format, the rest literally.
      expect(normalizeJson(ours[key], new Set()), key).toEqual(normalizeJson(value, new Set()));
    }
  });
});
