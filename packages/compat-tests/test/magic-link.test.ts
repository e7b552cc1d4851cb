import { createAuthClient } from "better-auth/client";
import { magicLinkClient } from "better-auth/client/plugins";
import { magicLink as referenceMagicLink } from "better-auth/plugins";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { magicLink } from "@latchkey/magic-link";
import { CookieJar, SESSION_COOKIE } from "./support/cookies.ts";
import { BASE_PATH, createPair, jsonPost, url, type Handler, type Pair } from "./support/instances.ts";
import { normalizeCaptured } from "./support/normalize.ts";
import { sendBoth } from "./support/send-both.ts";
import { createHash } from "node:crypto";
import { livePair } from "./support/live-pair.ts";
import { createRedisPair } from "./support/redis-pair.ts";

/**
 * `@latchkey/magic-link` beside the reference's `magicLink()` on one SQLite file: links one
 * side mails are redeemed by the other (plain and hashed tokens), every route answers alike
 * from the same stored rows, and the reference's `magicLinkClient()` works against Latchkey
 * over real HTTP. Row 80 of DIVERGENCES.md is asserted at the end.
 */
interface Mail {
  email: string;
  url: string;
  token: string;
}

type StoreToken = "plain" | "hashed";

/** A pair whose two plugins mail into one outbox each. */
async function magicPair(
  storeToken: StoreToken,
  extra: { disableSignUp?: boolean } = {},
): Promise<{ pair: Pair; outbox: { reference: Mail[]; latchkey: Mail[] } }> {
  const outbox = { reference: [] as Mail[], latchkey: [] as Mail[] };
  const pair = await createPair({
    reference: {
      plugins: [referenceMagicLink({ storeToken, ...extra, sendMagicLink: (m) => void outbox.reference.push(m) })],
    },
    latchkey: { plugins: [magicLink({ storeToken, ...extra, sendMagicLink: (m) => void outbox.latchkey.push(m) })] },
  });
  return { pair, outbox };
}

const get = (path: string, headers: Record<string, string> = {}): Request => new Request(url(path), { headers });

/** Asks `side` for a link and returns the mail. */
async function linkFrom(pair: Pair, outbox: Mail[], side: "reference" | "latchkey", body: Record<string, unknown>): Promise<Mail> {
  const answer = await pair[side](jsonPost("/sign-in/magic-link", body));
  expect(answer.status).toBe(200);
  return outbox.at(-1)!;
}

/** The stored identifiers of the verification table. */
const identifiers = (pair: Pair): string[] =>
  (pair.db.prepare("select identifier from verification").all([]) as { identifier: string }[]).map((r) => r.identifier);

describe.each<StoreToken>(["plain", "hashed"])("magic-link (storeToken %s): links cross over", (storeToken) => {
  let pair: Pair;
  let outbox: { reference: Mail[]; latchkey: Mail[] };
  beforeAll(async () => {
    ({ pair, outbox } = await magicPair(storeToken));
  });
  afterAll(() => pair.close());

  for (const [from, to] of [["reference", "latchkey"], ["latchkey", "reference"]] as const) {
    it(`a link ${from} mailed signs in on ${to}; the session works on both; the row is gone`, async () => {
      const email = `cross-${storeToken}-${from}@example.com`;
      const mail = await linkFrom(pair, outbox[from], from, { email, name: "Cross" });
      expect(mail.url).toBe(`http://localhost:3000${BASE_PATH}/magic-link/verify?token=${mail.token}&callbackURL=%2F`);
      expect(mail.token).toMatch(/^[a-zA-Z]{32}$/);
      const stored = identifiers(pair).at(-1);
      if (storeToken === "plain") expect(stored).toBe(mail.token);
      else expect(stored).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const jar = new CookieJar();
      const answer = await pair[to](get(`/magic-link/verify?token=${mail.token}`));
      jar.store(answer);
      expect(answer.status).toBe(200);
      const json = (await answer.json()) as { user: { email: string; emailVerified: boolean; name: string } };
      expect(json.user).toMatchObject({ email, emailVerified: true, name: "Cross" });
      expect(identifiers(pair)).not.toContain(stored);
      for (const side of [pair.reference, pair.latchkey]) {
        const session = await side(get("/get-session", { cookie: jar.header() }));
        expect(((await session.json()) as { user: { email: string } }).user.email).toBe(email);
      }
    });
  }

  it("the stored identifier and value are the same on both for the same token", async () => {
    const fixed = "AbCdEfGhIjKlMnOpQrStUvWxYzAbCdEf";
    const rows: unknown[] = [];
    for (const side of ["reference", "latchkey"] as const) {
      const local = await createPair({
        reference: { plugins: [referenceMagicLink({ storeToken, generateToken: () => fixed, sendMagicLink: () => {} })] },
        latchkey: { plugins: [magicLink({ storeToken, generateToken: () => fixed, sendMagicLink: () => {} })] },
      });
      try {
        await local[side](jsonPost("/sign-in/magic-link", { email: "Row@Example.com", name: "Row" }));
        rows.push(local.db.prepare("select identifier, value from verification").all([]));
      } finally {
        local.close();
      }
    }
    expect(rows[1]).toEqual(rows[0]);
  });
});

describe("magic-link: the same answers from the same stored rows", () => {
  let pair: Pair;
  let outbox: { reference: Mail[]; latchkey: Mail[] };
  beforeAll(async () => {
    ({ pair, outbox } = await magicPair("plain"));
  });
  afterAll(() => pair.close());

  /** Sends one request to both (same rows before each) and compares everything. */
  async function same(request: Request | (() => Promise<Request>)): Promise<unknown> {
    const result = await sendBoth(pair, typeof request === "function" ? await request() : request);
    const reference = normalizeCaptured(result.reference, result.known);
    const latchkey = normalizeCaptured(result.latchkey, result.known);
    expect(latchkey).toEqual(reference);
    expect(result.writes.latchkey).toEqual(result.writes.reference);
    return reference;
  }
  /** A fresh link issued by the reference, as a path with its query. */
  const issued = async (body: Record<string, unknown>): Promise<Mail> => linkFrom(pair, outbox.reference, "reference", body);
  const pathOf = (link: string): string => {
    const u = new URL(link);
    return `${u.pathname.slice(BASE_PATH.length)}${u.search}`;
  };

  it.each([
    ["a valid request", { email: "wire@example.com", name: "Wire", callbackURL: "/in", metadata: { k: 1 } }],
    ["an invalid email", { email: "not-an-email" }],
    ["no email", { name: "x" }],
    ["email as a number", { email: 5 }],
    ["metadata not an object", { email: "m@example.com", metadata: "x" }],
  ])("POST /sign-in/magic-link: %s", async (_name, body) => {
    await same(jsonPost("/sign-in/magic-link", body));
  });

  it("POST /sign-in/magic-link as a form post (415 on both)", async () => {
    await same(
      new Request(url("/sign-in/magic-link"), {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "email=form%40example.com&callbackURL=%2Fin",
      }),
    );
  });

  it.each([
    ["no token", "/magic-link/verify"],
    ["an unknown token, no callbackURL", "/magic-link/verify?token=nope"],
    ["an unknown token with callbackURL", "/magic-link/verify?token=nope&callbackURL=%2Fin"],
    ["an unknown token with errorCallbackURL", "/magic-link/verify?token=nope&callbackURL=%2Fin&errorCallbackURL=%2Foops"],
    ["an absolute callbackURL", "/magic-link/verify?token=nope&callbackURL=http%3A%2F%2Flocalhost%3A3000%2Fx"],
  ])("GET /magic-link/verify: %s", async (_name, path) => {
    await same(get(path));
  });

  it("GET /magic-link/verify: a new user without callbackURL gets { token, user, session } and the same cookies", async () => {
    const mail = await issued({ email: "json@example.com", name: "Json" });
    const answer = (await same(get(`/magic-link/verify?token=${mail.token}`))) as { body: { user: unknown } };
    expect(answer.body.user).toMatchObject({ email: "json@example.com", emailVerified: true });
  });

  it("GET /magic-link/verify: a new user with newUserCallbackURL is sent there", async () => {
    const mail = await issued({ email: "newcb@example.com", callbackURL: "/home", newUserCallbackURL: "/welcome" });
    await same(get(pathOf(mail.url)));
  });

  it("GET /magic-link/verify: a returning user is sent to callbackURL", async () => {
    await pair.reference(jsonPost("/sign-up/email", { email: "back@example.com", password: "password-1234", name: "Back" }));
    pair.db.prepare("update user set emailVerified = 1 where email = ?").run(["back@example.com"]);
    const mail = await issued({ email: "back@example.com", callbackURL: "/home", newUserCallbackURL: "/welcome" });
    await same(get(pathOf(mail.url)));
  });

  it("GET /magic-link/verify: an expired link", async () => {
    const mail = await issued({ email: "expired@example.com", callbackURL: "/in" });
    pair.db.prepare("update verification set expiresAt = ? where identifier = ?").run([new Date(Date.now() - 1000).toISOString(), mail.token]);
    const answer = (await same(get(pathOf(mail.url)))) as { headers: { location: string } };
    expect(answer.headers.location).toBe("http://localhost:3000/in?error=INVALID_TOKEN");
  });

  it("an unverified user with a password, an OAuth link and a session: both revoke them and verify the email", async () => {
    const signUp = await pair.reference(jsonPost("/sign-up/email", { email: "unproven@example.com", password: "password-1234", name: "U" }));
    const userId = ((await signUp.json()) as { user: { id: string } }).user.id;
    const now = new Date().toISOString();
    pair.db
      .prepare("insert into account (id, accountId, providerId, userId, createdAt, updatedAt) values (?, ?, ?, ?, ?, ?)")
      .run(["acct-github-unproven-0000000000", "gh-1", "github", userId, now, now]);
    const mail = await issued({ email: "unproven@example.com" });
    const result = await sendBoth(pair, get(`/magic-link/verify?token=${mail.token}`));
    expect(normalizeCaptured(result.latchkey, result.known)).toEqual(normalizeCaptured(result.reference, result.known));
    // Two accounts and the sign-up session removed, one session added, on both.
    expect(result.writes.reference).toMatchObject({ account: -2, session: 0, verification: -1 });
    expect(result.writes.latchkey).toEqual(result.writes.reference);
  });
});

describe("magic-link: disableSignUp on both", () => {
  it("an unknown address is redirected with new_user_signup_disabled, alike", async () => {
    const { pair, outbox } = await magicPair("plain", { disableSignUp: true });
    try {
      const mail = await linkFrom(pair, outbox.reference, "reference", { email: "none@example.com", callbackURL: "/in" });
      const result = await sendBoth(pair, get(`/magic-link/verify?token=${mail.token}&callbackURL=%2Fin`));
      expect(result.latchkey).toEqual(result.reference);
      expect(result.reference.headers.location).toBe("http://localhost:3000/in?error=new_user_signup_disabled");
    } finally {
      pair.close();
    }
  });
});

describe("magic-link: the reference's magicLinkClient() over real HTTP", () => {
  const seen: Record<string, unknown> = {};
  for (const side of ["reference", "latchkey"] as const) {
    it(`signIn.magicLink, magicLink.verify and getSession against ${side}`, async () => {
      const outbox: Mail[] = [];
      const send = (m: Mail) => void outbox.push(m);
      const live = await livePair(side, {
        reference: { plugins: [referenceMagicLink({ sendMagicLink: send })] },
        latchkey: { plugins: [magicLink({ sendMagicLink: send })] },
      });
      try {
        const jar = live.jar;
        const auth = createAuthClient({ baseURL: live.baseURL, fetchOptions: { customFetchImpl: jar.fetch }, plugins: [magicLinkClient()] });
        const sent = await auth.signIn.magicLink({ email: "client@example.com", name: "Client" });
        expect(sent).toMatchObject({ data: { status: true }, error: null });
        const verified = await auth.magicLink.verify({ query: { token: outbox.at(-1)!.token } });
        expect(verified.error).toBeNull();
        expect(verified.data?.user).toMatchObject({ email: "client@example.com", emailVerified: true });
        const session = await auth.getSession();
        expect(session.data?.user.email).toBe("client@example.com");
        const again = await auth.magicLink.verify({ query: { token: outbox.at(-1)!.token } });
        const bad = await auth.signIn.magicLink({ email: "nope" });
        expect(jar.jar.names()).toContain(SESSION_COOKIE);
        seen[side] = { again: again.error?.status ?? again.data, bad: bad.error, calls: jar.calls };
      } finally {
        await live.close();
      }
    });
  }
  it("the replayed link and the bad email give the same client results on both", () => {
    expect(seen.latchkey).toEqual(seen.reference);
  });
});

describe("magic-link: divergence row 80", () => {
  let pair: Pair;
  let outbox: { reference: Mail[]; latchkey: Mail[] };
  beforeAll(async () => {
    ({ pair, outbox } = await magicPair("plain"));
  });
  afterAll(() => pair.close());

  it("row 80: a callbackURL that does not percent-decode — the reference answers 500, Latchkey redirects to it as sent", async () => {
    const mail = await linkFrom(pair, outbox.reference, "reference", { email: "pct@example.com" });
    const result = await sendBoth(pair, get(`/magic-link/verify?token=${mail.token}&callbackURL=%2Fa%25`));
    expect(result.reference.status).toBe(500);
    expect(result.latchkey.status).toBe(302);
    expect(result.latchkey.headers.location).toBe("http://localhost:3000/a%");
  });
});

export type { Handler };

describe("magic-link: links in Redis secondary storage, shared by both", () => {
  it("a link one side stored in Redis signs in on the other, both ways (hashed tokens)", async () => {
    const outbox: Mail[] = [];
    const send = (m: Mail) => void outbox.push(m);
    const redisPair = await createRedisPair(
      {},
      {
        reference: { plugins: [referenceMagicLink({ sendMagicLink: send, storeToken: "hashed" })] },
        latchkey: { plugins: [magicLink({ sendMagicLink: send, storeToken: "hashed" })] },
      },
    );
    const handlers = { reference: redisPair.reference, latchkey: redisPair.latchkey };
    try {
      for (const [from, to] of [["reference", "latchkey"], ["latchkey", "reference"]] as const) {
        const email = `redis-${from}@example.com`;
        expect((await handlers[from](jsonPost("/sign-in/magic-link", { email }))).status).toBe(200);
        const token = outbox.at(-1)!.token;
        const key = `verification:${createHash("sha256").update(token).digest("base64url")}`;
        expect(await redisPair.stored(key)).toMatchObject({ value: JSON.stringify({ email }) });
        const answer = await handlers[to](get(`/magic-link/verify?token=${token}`));
        expect(answer.status).toBe(200);
        expect(((await answer.json()) as { user: { email: string } }).user.email).toBe(email);
        expect(await redisPair.stored(key)).toBeNull();
        expect((await handlers[from](get(`/magic-link/verify?token=${token}`))).headers.get("location")).toContain("error=INVALID_TOKEN");
      }
    } finally {
      await redisPair.close();
    }
  });
});
