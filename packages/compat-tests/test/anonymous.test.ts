import { createAuthClient } from "better-auth/client";
import { anonymousClient } from "better-auth/client/plugins";
import { anonymous as referenceAnonymous } from "better-auth/plugins";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anonymous } from "@latchkey/anonymous";
import { jarFetch } from "./support/client-fetch.ts";
import { CookieJar, responseCookies, type ParsedCookie } from "./support/cookies.ts";
import { BASE_PATH, createPair, url, type Handler, type Pair } from "./support/instances.ts";
import { listen } from "./support/server.ts";

/**
 * `@latchkey/anonymous` beside the reference's `anonymous()` (better-auth/plugins) on one SQLite
 * file: the same answers and cookies for one scripted flow, and anonymous users made by one side
 * refused, linked and deleted by the other.
 */
const PASSWORD = "password-1234";
const PLACEHOLDER = /^[a-z0-9]{32}@anonymous\.placeholder\.invalid$/;

interface Answer {
  status: number;
  json: unknown;
  cookies: ParsedCookie[];
}

/** One browser: a cookie jar in front of a handler (swappable for the other side's). */
class Browser {
  readonly jar = new CookieJar();
  constructor(public handler: Handler) {}

  async post(path: string, body?: unknown): Promise<Answer> {
    const headers: Record<string, string> = { cookie: this.jar.header() };
    if (body !== undefined) headers["content-type"] = "application/json";
    const init: RequestInit = { method: "POST", headers };
    if (body !== undefined) init.body = JSON.stringify(body);
    const response = await this.handler(new Request(url(path), init));
    this.jar.store(response);
    const text = await response.text();
    return { status: response.status, json: text ? JSON.parse(text) : null, cookies: responseCookies(response) };
  }
}

/** Replaces what differs by construction (ids, tokens, generated addresses, dates, signatures). */
function normalize(value: unknown): unknown {
  return JSON.parse(
    JSON.stringify(value, (key, v: unknown) => {
      if (["id", "token", "createdAt", "updatedAt"].includes(key)) return "<any>";
      if (key === "email" && typeof v === "string" && PLACEHOLDER.test(v)) return "<placeholder>";
      if (key === "value" && typeof v === "string") return v === "" ? "" : "<signed>";
      return v;
    }),
  );
}

const userExists = (pair: Pair, id: string): boolean =>
  (pair.db.prepare("select count(*) as n from user where id = ?").all([id]) as { n: number }[])[0]!.n === 1;

async function flow(pair: Pair, side: "reference" | "latchkey"): Promise<unknown[]> {
  const browser = new Browser(pair[side]);
  const steps: unknown[] = [];
  const first = await browser.post("/sign-in/anonymous");
  const anonymousId = (first.json as { user: { id: string } }).user.id;
  steps.push(first, await browser.post("/sign-in/anonymous"));
  steps.push(await browser.post("/sign-up/email", { email: `linked-${side}@example.com`, password: PASSWORD, name: "L" }));
  steps.push(userExists(pair, anonymousId));
  steps.push(await browser.post("/delete-anonymous-user"));
  const guest = new Browser(pair[side]);
  await guest.post("/sign-in/anonymous");
  steps.push(await guest.post("/delete-anonymous-user"), guest.jar.names());
  return (normalize(steps) as unknown[]).map((step) =>
    JSON.parse(JSON.stringify(step).replaceAll(`-${side}@`, "-side@")),
  );
}

describe("anonymous: the same answers and cookies on both", () => {
  let pair: Pair;
  beforeAll(async () => {
    pair = await createPair({
      reference: { plugins: [referenceAnonymous()] },
      latchkey: { plugins: [anonymous()] },
    });
  });
  afterAll(() => pair.close());

  it("the reference's isAnonymous column is Latchkey's: createTables added nothing", async () => {
    const columns = pair.db.prepare("select name, type from pragma_table_info('user') where name = 'isAnonymous'").all([]);
    expect(columns).toEqual([{ name: "isAnonymous", type: "INTEGER" }]);
  });

  it("sign-in, a refused second sign-in, linking by sign-up, delete refused and done: step for step", async () => {
    const reference = await flow(pair, "reference");
    const latchkey = await flow(pair, "latchkey");
    expect(latchkey).toEqual(reference);
    expect((reference[0] as Answer).status).toBe(200);
    expect(reference[3]).toBe(false);
  });
});

describe("anonymous: users made by one side are honoured by the other", () => {
  let pair: Pair;
  beforeAll(async () => {
    pair = await createPair({
      reference: { plugins: [referenceAnonymous()] },
      latchkey: { plugins: [anonymous()] },
    });
  });
  afterAll(() => pair.close());

  for (const [from, to] of [
    ["reference", "latchkey"],
    ["latchkey", "reference"],
  ] as const) {
    it(`an anonymous browser from ${from}: ${to} refuses a second anonymous sign-in, then links and deletes the user`, async () => {
      const browser = new Browser(pair[from]);
      const made = await browser.post("/sign-in/anonymous");
      const anonymousId = (made.json as { user: { id: string } }).user.id;
      browser.handler = pair[to];
      const again = await browser.post("/sign-in/anonymous");
      expect(again.status).toBe(400);
      expect((again.json as { code: string }).code).toBe("ANONYMOUS_USERS_CANNOT_SIGN_IN_AGAIN_ANONYMOUSLY");
      const linked = await browser.post("/sign-up/email", { email: `cross-${from}@example.com`, password: PASSWORD, name: "C" });
      expect(linked.status).toBe(200);
      expect(userExists(pair, anonymousId)).toBe(false);
    });

    it(`an anonymous user from ${from} is deleted by ${to}'s /delete-anonymous-user`, async () => {
      const browser = new Browser(pair[from]);
      const made = await browser.post("/sign-in/anonymous");
      browser.handler = pair[to];
      expect((await browser.post("/delete-anonymous-user")).json).toEqual({ success: true });
      expect(userExists(pair, (made.json as { user: { id: string } }).user.id)).toBe(false);
    });
  }
});

describe("anonymous: the reference's anonymousClient() against Latchkey over HTTP", () => {
  it("signs in, is refused again, links on sign-up, and deletes a guest, as against the reference", async () => {
    const results: Record<string, unknown[]> = {};
    for (const side of ["reference", "latchkey"] as const) {
      const server = await listen();
      const pair = await createPair({
        baseURL: server.origin,
        reference: { plugins: [referenceAnonymous()] },
        latchkey: { plugins: [anonymous()] },
      });
      server.use(pair[side]);
      try {
        const client = () =>
          createAuthClient({
            baseURL: `${server.origin}${BASE_PATH}`,
            fetchOptions: { customFetchImpl: jarFetch().fetch },
            plugins: [anonymousClient()],
          });
        const browser = client();
        const steps: unknown[] = [];
        const guest = await browser.signIn.anonymous();
        steps.push(guest, await browser.signIn.anonymous());
        steps.push(await browser.signUp.email({ email: "client@example.com", password: PASSWORD, name: "Client" }));
        const other = client();
        await other.signIn.anonymous();
        steps.push(await other.deleteAnonymousUser(), await other.getSession());
        results[side] = normalize(steps) as unknown[];
        expect(guest.data?.user.email).toMatch(PLACEHOLDER);
      } finally {
        pair.close();
        await server.close();
      }
    }
    expect(results.latchkey).toEqual(results.reference);
  });
});
