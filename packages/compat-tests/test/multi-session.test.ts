import { createAuthClient } from "better-auth/client";
import { multiSessionClient } from "better-auth/client/plugins";
import { multiSession as referenceMultiSession } from "better-auth/plugins";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { multiSession } from "@latchkey/multi-session";
import { listen } from "./support/server.ts";
import { jarFetch } from "./support/client-fetch.ts";
import { CookieJar, responseCookies, SESSION_COOKIE, type ParsedCookie } from "./support/cookies.ts";
import { BASE_PATH, BASE_URL, createPair, jsonPost, url, type Handler, type Pair } from "./support/instances.ts";

/**
 * `@latchkey/multi-session` beside the reference's `multiSession()` (better-auth/plugins) on one
 * SQLite file and one secret: the same flows give the same statuses, bodies and cookies (names
 * up to the tokens, attributes exactly), and a browser whose cookies one side set goes on
 * working on the other. Rows 61-63 of DIVERGENCES.md are asserted at the end.
 */
const PASSWORD = "password-1234";
const multiName = (token: string): string => `${SESSION_COOKIE}_multi-${token.toLowerCase()}`;

/** How many of these sessions are still stored. */
function sessionsLeft(pair: Pair, ...tokens: string[]): number {
  const marks = tokens.map(() => "?").join(", ");
  const rows = pair.db.prepare(`select count(*) as n from session where token in (${marks})`).all(tokens) as { n: number }[];
  return rows[0]!.n;
}

/** A browser: one cookie jar in front of one handler (which can be swapped for the other side's). */
class Browser {
  readonly jar = new CookieJar();
  readonly tokens: string[] = [];
  constructor(
    public handler: Handler,
    private readonly baseURL = BASE_URL,
  ) {}

  async send(path: string, body?: unknown): Promise<{ status: number; json: unknown; cookies: ParsedCookie[] }> {
    const headers: Record<string, string> = { cookie: this.jar.header() };
    const request =
      body === undefined
        ? new Request(url(path, this.baseURL), { method: "GET", headers })
        : new Request(url(path, this.baseURL), {
            method: "POST",
            headers: { "content-type": "application/json", ...headers },
            body: JSON.stringify(body),
          });
    const response = await this.handler(request);
    this.jar.store(response);
    const text = await response.text();
    return { status: response.status, json: text ? JSON.parse(text) : null, cookies: responseCookies(response) };
  }

  async signUp(email: string): Promise<string> {
    const answer = await this.send("/sign-up/email", { email, password: PASSWORD, name: email });
    const token = (answer.json as { token: string }).token;
    this.tokens.push(token);
    return token;
  }

  multiNames(): string[] {
    return this.jar.names().filter((n) => n.startsWith(`${SESSION_COOKIE}_multi-`));
  }
}

/** Replaces what differs by construction (tokens, ids, dates, signatures, the side's emails) with stable marks. */
function normalize(value: unknown, browser: Browser, side: string): unknown {
  let text = JSON.stringify(value);
  browser.tokens.forEach((token, i) => {
    text = text.replaceAll(token, `<token${i}>`).replaceAll(token.toLowerCase(), `<ltoken${i}>`);
  });
  text = text.replaceAll(`-${side}@`, "-side@");
  const parsed = JSON.parse(text) as unknown;
  return JSON.parse(
    JSON.stringify(parsed, (key, v: unknown) => {
      if (["id", "userId", "createdAt", "updatedAt", "expiresAt"].includes(key)) return "<any>";
      // A cookie value is `<token>.<signature>` or empty: keep only whether it is empty.
      if (key === "value" && typeof v === "string") return v === "" ? "" : "<signed>";
      return v;
    }),
  );
}

/**
 * The list, its entries sorted by email so both sides compare, plus whether it came in
 * ascending token order: the reference answers in its database's order for `token IN (...)`,
 * which SQLite gives by the token index; Latchkey sorts so.
 */
async function listInTokenOrder(browser: Browser): Promise<unknown> {
  const answer = await browser.send("/multi-session/list-device-sessions");
  const entries = answer.json as { session: { token: string }; user: { email: string } }[];
  const tokens = entries.map((e) => e.session.token);
  const ascending = tokens.every((token, i) => i === 0 || tokens[i - 1]! < token);
  const byEmail = [...entries].sort((x, y) => (x.user.email < y.user.email ? -1 : 1));
  return { ...answer, json: byEmail, ascending };
}

/** One scripted flow: three users, list, switch, revoke a non-current and the current one, sign-out. */
async function flow(handler: Handler, side: string): Promise<unknown[]> {
  const browser = new Browser(handler);
  const steps: unknown[] = [];
  const record = async (path: string, body?: unknown) => steps.push(await browser.send(path, body));
  steps.push(await browser.send("/multi-session/list-device-sessions"));
  const a = await browser.signUp(`a-${side}@example.com`);
  const b = await browser.signUp(`b-${side}@example.com`);
  const c = await browser.signUp(`c-${side}@example.com`);
  steps.push(browser.multiNames().length);
  steps.push(await listInTokenOrder(browser));
  await record("/multi-session/set-active", { sessionToken: a });
  await record("/multi-session/set-active", { sessionToken: "no-such-token" });
  await record("/multi-session/revoke", { sessionToken: b });
  await record("/multi-session/revoke", { sessionToken: a });
  await record("/get-session");
  await record("/multi-session/revoke", { sessionToken: "no-such-token" });
  await browser.signUp(`d-${side}@example.com`);
  // c signs in again: its older session is deleted and its multi cookie replaced.
  const again = await browser.send("/sign-in/email", { email: `c-${side}@example.com`, password: PASSWORD });
  browser.tokens.push((again.json as { token: string }).token);
  steps.push(again);
  steps.push(await listInTokenOrder(browser));
  await record("/sign-out", {});
  const signOutStep = steps.length - 1;
  await record("/multi-session/list-device-sessions");
  steps.push(browser.jar.names());
  void c;
  const normalized = normalize(steps, browser, side) as { cookies: { name: string }[] }[];
  // The reference expires the multi cookies as their signatures finish verifying (in parallel),
  // so their order on sign-out varies from run to run: compare them as a set.
  normalized[signOutStep]!.cookies.sort((x, y) => (x.name < y.name ? -1 : 1));
  return normalized;
}

describe("multi-session: the same answers and cookies on both", () => {
  let pair: Pair;
  beforeAll(async () => {
    pair = await createPair({
      reference: { plugins: [referenceMultiSession()] },
      latchkey: { plugins: [multiSession()] },
    });
  });
  afterAll(() => pair.close());

  it("sign-up sets `<session cookie>_multi-<lower-cased token>` with the session cookie's attributes on both", async () => {
    for (const [side, handler] of [["r", pair.reference], ["l", pair.latchkey]] as const) {
      const browser = new Browser(handler);
      const token = await browser.signUp(`attrs-${side}@example.com`);
      const answer = await browser.send("/get-session");
      expect(answer.status).toBe(200);
      expect(browser.jar.names()).toContain(multiName(token));
    }
    const lines = async (handler: Handler, email: string) => {
      const response = await handler(jsonPost("/sign-up/email", { email, password: PASSWORD, name: "x" }));
      const cookies = responseCookies(response);
      const session = cookies.find((c) => c.name === SESSION_COOKIE)!;
      const multi = cookies.find((c) => c.name.includes("_multi-"))!;
      return { session: session.attributes, multi: multi.attributes, order: cookies.map((c) => c.name.replace(/_multi-.*/, "_multi-*")) };
    };
    const reference = await lines(pair.reference, "lines-r@example.com");
    expect(await lines(pair.latchkey, "lines-l@example.com")).toEqual(reference);
    expect(reference.multi).toEqual(reference.session);
  });

  it("list, set-active, revoke (non-current, current, unknown), sign-out: the same statuses, bodies and Set-Cookie lines", async () => {
    const reference = await flow(pair.reference, "r");
    const latchkey = await flow(pair.latchkey, "l");
    expect(latchkey).toEqual(reference);
  });

  it("an expired session: list skips it, set-active answers 401 and expires its cookie, on both", async () => {
    const run = async (handler: Handler, side: string) => {
      const browser = new Browser(handler);
      const a = await browser.signUp(`exp-a-${side}@example.com`);
      await browser.signUp(`exp-b-${side}@example.com`);
      pair.db.prepare(`update session set expiresAt = ? where token = ?`).run([Date.now() - 60_000, a]);
      const steps = [
        await browser.send("/multi-session/list-device-sessions"),
        await browser.send("/multi-session/set-active", { sessionToken: a }),
      ];
      expect(steps[0]!.json).toHaveLength(1);
      expect(steps[1]!.status).toBe(401);
      return normalize(steps, browser, side);
    };
    expect(await run(pair.latchkey, "l")).toEqual(await run(pair.reference, "r"));
  });

  it("revoking the active session hands over to the remaining session with the lowest token, on both", async () => {
    const run = async (handler: Handler, side: string) => {
      const browser = new Browser(handler);
      for (const x of ["a", "b", "c", "d"]) await browser.signUp(`hand-${x}-${side}@example.com`);
      const active = browser.tokens[3]!;
      await browser.send("/multi-session/revoke", { sessionToken: active });
      const now = (await browser.send("/get-session")).json as { session: { token: string } };
      const lowest = browser.tokens.slice(0, 3).sort()[0];
      return now.session.token === lowest;
    };
    expect(await run(pair.reference, "r")).toBe(true);
    expect(await run(pair.latchkey, "l")).toBe(true);
  });

  it("the sixth user in one browser gets no multi cookie on either side (maximumSessions 5)", async () => {
    const run = async (handler: Handler, side: string) => {
      const browser = new Browser(handler);
      for (let i = 0; i < 6; i++) await browser.signUp(`max${i}-${side}@example.com`);
      const list = (await browser.send("/multi-session/list-device-sessions")).json as unknown[];
      return { cookies: browser.multiNames().length, listed: list.length, sixth: browser.jar.names().includes(multiName(browser.tokens[5]!)) };
    };
    const reference = await run(pair.reference, "r");
    expect(reference).toEqual({ cookies: 5, listed: 5, sixth: false });
    expect(await run(pair.latchkey, "l")).toEqual(reference);
  });
});

describe("multi-session: on https, `__Secure-` cookies", () => {
  let pair: Pair;
  const https = "https://auth.example.com";
  beforeAll(async () => {
    pair = await createPair({
      baseURL: https,
      reference: { plugins: [referenceMultiSession()] },
      latchkey: { plugins: [multiSession()] },
    });
  });
  afterAll(() => pair.close());

  it("the multi cookie is `__Secure-better-auth.session_token_multi-<token>` with Secure on both; switch and sign-out work", async () => {
    const run = async (handler: Handler, side: string) => {
      const browser = new Browser(handler, https);
      const a = await browser.signUp(`sec-a-${side}@example.com`);
      await browser.signUp(`sec-b-${side}@example.com`);
      const names = browser.jar.names().filter((n) => n.includes("_multi-"));
      expect(names).toContain(`__Secure-${multiName(a)}`);
      const switched = await browser.send("/multi-session/set-active", { sessionToken: a });
      const out = await browser.send("/sign-out", {});
      const normalized = normalize({ names: names.length, switched, out: out.cookies, left: browser.jar.names() }, browser, side) as {
        out: { name: string }[];
      };
      // Sign-out order varies on the reference (see the flow above): compare as a set.
      normalized.out.sort((x, y) => (x.name < y.name ? -1 : 1));
      return normalized;
    };
    const reference = await run(pair.reference, "r");
    expect(await run(pair.latchkey, "l")).toEqual(reference);
  });
});

describe("multi-session: a browser moves between the implementations", () => {
  let pair: Pair;
  beforeAll(async () => {
    pair = await createPair({
      reference: { plugins: [referenceMultiSession()] },
      latchkey: { plugins: [multiSession()] },
    });
  });
  afterAll(() => pair.close());

  for (const [from, to] of [["reference", "latchkey"], ["latchkey", "reference"]] as const) {
    it(`cookies set by ${from} list, switch, revoke and sign out on ${to}`, async () => {
      const browser = new Browser(pair[from]);
      const a = await browser.signUp(`move-a-${from}@example.com`);
      const b = await browser.signUp(`move-b-${from}@example.com`);
      const c = await browser.signUp(`move-c-${from}@example.com`);
      browser.handler = pair[to];
      const list = (await browser.send("/multi-session/list-device-sessions")).json as { user: { email: string } }[];
      expect(list.map((e) => e.user.email).sort()).toEqual(
        ["a", "b", "c"].map((x) => `move-${x}-${from}@example.com`),
      );
      const switched = await browser.send("/multi-session/set-active", { sessionToken: a });
      expect(switched.status).toBe(200);
      expect(((await browser.send("/get-session")).json as { user: { email: string } }).user.email).toBe(`move-a-${from}@example.com`);
      expect((await browser.send("/multi-session/revoke", { sessionToken: b })).json).toEqual({ status: true });
      // A sign-in on the other side joins the same browser.
      const d = await browser.signUp(`move-d-${from}@example.com`);
      expect(browser.multiNames().sort()).toEqual([a, c, d].map(multiName).sort());
      await browser.send("/sign-out", {});
      expect(browser.multiNames()).toEqual([]);
      expect(sessionsLeft(pair, a, b, c, d)).toBe(0);
    });
  }
});

describe("multi-session: the reference's own client with multiSessionClient(), over real HTTP", () => {
  /** The flow through `authClient.multiSession.*`; every `{ data, error }`, normalised. */
  async function clientFlow(side: "reference" | "latchkey"): Promise<unknown> {
    const server = await listen();
    const pair = await createPair({
      baseURL: server.origin,
      reference: { plugins: [referenceMultiSession()] },
      latchkey: { plugins: [multiSession()] },
    });
    server.use(pair[side]);
    try {
      const jar = jarFetch();
      const auth = createAuthClient({
        baseURL: `${server.origin}${BASE_PATH}`,
        fetchOptions: { customFetchImpl: jar.fetch },
        plugins: [multiSessionClient()],
      });
      const tokens: string[] = [];
      for (const x of ["a", "b"]) {
        const signed = await auth.signUp.email({ email: `cl-${x}@example.com`, password: PASSWORD, name: x });
        tokens.push(signed.data!.token!);
      }
      const listed = await auth.multiSession.listDeviceSessions();
      const entries = [...(listed.data ?? [])].sort((x, y) => (x.user.email < y.user.email ? -1 : 1));
      const switched = await auth.multiSession.setActive({ sessionToken: tokens[0]! });
      const session = await auth.getSession();
      const revoked = await auth.multiSession.revoke({ sessionToken: tokens[1]! });
      const refused = await auth.multiSession.setActive({ sessionToken: "nope" });
      const browser = new Browser(pair[side]);
      browser.tokens.push(...tokens);
      return normalize(
        { entries, listError: listed.error, switched, session: session.data?.user.email, revoked, refused, calls: jar.calls },
        browser,
        side,
      );
    } finally {
      pair.close();
      await server.close();
    }
  }

  it("lists, switches, revokes and refuses alike on both servers", async () => {
    const reference = await clientFlow("reference");
    expect(await clientFlow("latchkey")).toEqual(reference);
    expect((reference as { calls: string[] }).calls).toContain("POST /api/auth/multi-session/set-active → 401");
  });
});

describe("multi-session: divergences (DIVERGENCES.md rows 61-63)", () => {
  let pair: Pair;
  beforeAll(async () => {
    pair = await createPair({
      reference: { plugins: [referenceMultiSession()] },
      latchkey: { plugins: [multiSession()] },
    });
  });
  afterAll(() => pair.close());

  it("row 61: a signed value under another session's cookie name — the reference acts on the value's session, Latchkey refuses", async () => {
    const run = async (handler: Handler, side: string) => {
      const browser = new Browser(handler);
      const a = await browser.signUp(`rn-a-${side}@example.com`);
      const b = await browser.signUp(`rn-b-${side}@example.com`);
      await browser.signUp(`rn-c-${side}@example.com`);
      // c is active; a's cookie name now carries b's signed value (its signature still verifies).
      const header = `${SESSION_COOKIE}=${browser.jar.get(SESSION_COOKIE)!}; ${multiName(a)}=${browser.jar.get(multiName(b))!}`;
      const send = (path: string) => handler(jsonPost(path, { sessionToken: a }, { cookie: header }));
      const left = (token: string) => sessionsLeft(pair, token);
      const revoked = await send("/multi-session/revoke");
      const afterRevoke = { revoked: revoked.status, aLeft: left(a), bLeft: left(b) };
      return afterRevoke;
    };
    // The reference deletes b although the request named a.
    expect(await run(pair.reference, "r")).toEqual({ revoked: 200, aLeft: 1, bLeft: 0 });
    expect(await run(pair.latchkey, "l")).toEqual({ revoked: 401, aLeft: 1, bLeft: 1 });
  });

  it("row 61: set-active with such a cookie — the reference activates the value's session and then its own hook deletes it; Latchkey refuses", async () => {
    const run = async (handler: Handler, side: string) => {
      const browser = new Browser(handler);
      const a = await browser.signUp(`sa-a-${side}@example.com`);
      const b = await browser.signUp(`sa-b-${side}@example.com`);
      await browser.signUp(`sa-c-${side}@example.com`);
      const header = `${SESSION_COOKIE}=${browser.jar.get(SESSION_COOKIE)!}; ${multiName(a)}=${browser.jar.get(multiName(b))!}`;
      const switched = await handler(jsonPost("/multi-session/set-active", { sessionToken: a }, { cookie: header }));
      const body = switched.status === 200 ? ((await switched.json()) as { session: { token: string } }) : null;
      const bLeft = sessionsLeft(pair, b);
      return { switched: switched.status, switchedToB: body?.session.token === b, bLeft };
    };
    expect(await run(pair.reference, "r")).toEqual({ switched: 200, switchedToB: true, bLeft: 0 });
    expect(await run(pair.latchkey, "l")).toEqual({ switched: 401, switchedToB: false, bLeft: 1 });
  });

  it("row 62: five junk `_multi-` cookies — the reference counts them and leaves the next sign-in unremembered, Latchkey counts live sessions only", async () => {
    const run = async (handler: Handler, side: string) => {
      const junk = [0, 1, 2, 3, 4].map((i) => `${SESSION_COOKIE}_multi-junk${i}=junk${i}.x`).join("; ");
      const response = await handler(
        jsonPost("/sign-up/email", { email: `junk-${side}@example.com`, password: PASSWORD, name: "j" }, { cookie: junk }),
      );
      return responseCookies(response).some((c) => c.name.includes("_multi-") && c.value !== "");
    };
    expect(await run(pair.reference, "r")).toBe(false);
    expect(await run(pair.latchkey, "l")).toBe(true);
  });
});

describe("multi-session: divergence row 63 (sign-out with an upper-case cookie prefix)", () => {
  let pair: Pair;
  beforeAll(async () => {
    pair = await createPair({
      reference: { plugins: [referenceMultiSession()], advanced: { cookiePrefix: "MyApp" } },
      latchkey: { plugins: [multiSession()], advanced: { cookiePrefix: "MyApp" } },
    });
  });
  afterAll(() => pair.close());

  it("row 63: the reference expires lower-cased names the browser does not hold, Latchkey the cookies' own names", async () => {
    const run = async (handler: Handler, side: string) => {
      const browser = new Browser(handler);
      await browser.signUp(`up-a-${side}@example.com`);
      await browser.signUp(`up-b-${side}@example.com`);
      const before = browser.jar.names().filter((n) => n.includes("_multi-"));
      expect(before.every((n) => n.startsWith("MyApp.session_token_multi-"))).toBe(true);
      const out = await browser.send("/sign-out", {});
      const expired = out.cookies.filter((c) => c.name.includes("_multi-")).map((c) => c.name);
      return {
        held: before.length,
        expiredOwnNames: expired.filter((n) => before.includes(n)).length,
        left: browser.jar.names().filter((n) => n.includes("_multi-")).length,
        sessionsLeft: sessionsLeft(pair, ...browser.tokens),
      };
    };
    // Both delete the sessions; only Latchkey's Set-Cookie lines reach the browser's cookies.
    expect(await run(pair.reference, "r")).toEqual({ held: 2, expiredOwnNames: 0, left: 2, sessionsLeft: 0 });
    expect(await run(pair.latchkey, "l")).toEqual({ held: 2, expiredOwnNames: 2, left: 0, sessionsLeft: 0 });
  });
});
