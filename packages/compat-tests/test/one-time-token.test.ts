import { createHash } from "node:crypto";
import { createAuthClient } from "better-auth/client";
import { oneTimeTokenClient } from "better-auth/client/plugins";
import { oneTimeToken as referenceOneTimeToken } from "better-auth/plugins";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { oneTimeToken } from "@latchkey/one-time-token";
import { capture } from "./support/capture.ts";
import { jarFetch } from "./support/client-fetch.ts";
import { signUp, type SignedIn } from "./support/flows.ts";
import { BASE_PATH, createPair, jsonPost, url, type Handler, type Pair } from "./support/instances.ts";
import { normalizeCaptured } from "./support/normalize.ts";
import { createRedisPair, type RedisPair } from "./support/redis-pair.ts";
import { listen } from "./support/server.ts";

/**
 * `@latchkey/one-time-token` beside the reference's `oneTimeToken()` on one database: tokens
 * made by one side are redeemed by the other (plain and hashed), the same answers for every
 * outcome, single use across both, and the reference's `oneTimeTokenClient()` against Latchkey.
 */
const PASSWORD = "password-1234";
let n = 0;
const user = (): { email: string; password: string; name: string } => ({ email: `ott-${++n}@example.com`, password: PASSWORD, name: "O" });

async function generateOn(handler: Handler, who: SignedIn): Promise<string> {
  const response = await handler(new Request(url("/one-time-token/generate"), { headers: { cookie: who.cookie } }));
  expect(response.status).toBe(200);
  return ((await response.json()) as { token: string }).token;
}
const verify = (handler: Handler, token: string): Promise<Response> => handler(jsonPost("/one-time-token/verify", { token }));
const ottRows = (pair: Pair) =>
  pair.db.prepare(`select identifier, value from verification where identifier like 'one-time-token:%'`).all([]) as Array<{
    identifier: string;
    value: string;
  }>;

describe.each(["plain", "hashed"] as const)("one-time-token (%s): tokens cross between the two", (storeToken) => {
  let pair: Pair;
  beforeAll(async () => {
    pair = await createPair({
      reference: { plugins: [referenceOneTimeToken({ storeToken })] },
      latchkey: { plugins: [oneTimeToken({ storeToken })] },
    });
  });
  afterAll(() => pair.close());

  it("the same stored row form on both sides", async () => {
    const a = await signUp(pair.reference, user());
    const refToken = await generateOn(pair.reference, a);
    const lkToken = await generateOn(pair.latchkey, a);
    const form = (t: string) => (storeToken === "hashed" ? createHash("sha256").update(t).digest("base64url") : t);
    const rows = ottRows(pair);
    expect(rows).toContainEqual({ identifier: `one-time-token:${form(refToken)}`, value: a.token });
    expect(rows).toContainEqual({ identifier: `one-time-token:${form(lkToken)}`, value: a.token });
  });

  it.each([
    ["reference", "latchkey"],
    ["latchkey", "reference"],
  ] as const)("made on %s, redeemed on %s: the session, then 400 Invalid token on both", async (maker, redeemer) => {
    const who = await signUp(pair[maker], user());
    const token = await generateOn(pair[maker], who);
    const first = await verify(pair[redeemer], token);
    expect(first.status).toBe(200);
    expect(((await first.json()) as { session: { token: string } }).session.token).toBe(who.token);
    for (const side of [pair.reference, pair.latchkey]) {
      const again = await verify(side, token);
      expect(again.status).toBe(400);
      expect(await again.json()).toEqual({ message: "Invalid token" });
    }
  });

  it("the same verify answer (body and Set-Cookie) for tokens of one session", async () => {
    const who = await signUp(pair.reference, user());
    const known = new Set([who.token, who.userId]);
    const ref = normalizeCaptured(await capture(await verify(pair.reference, await generateOn(pair.reference, who))), known);
    const lk = normalizeCaptured(await capture(await verify(pair.latchkey, await generateOn(pair.latchkey, who))), known);
    expect(lk).toEqual(ref);
  });

  it("ten parallel redemptions, five on each side: one wins", async () => {
    const who = await signUp(pair.latchkey, user());
    const token = await generateOn(pair.reference, who);
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => verify(i % 2 ? pair.reference : pair.latchkey, token)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
  });
});

describe("one-time-token with Redis secondary storage on both sides", () => {
  let pair: RedisPair;
  beforeAll(async () => {
    pair = await createRedisPair({}, { plugins: { reference: [referenceOneTimeToken()], latchkey: [oneTimeToken()] } });
  });
  afterAll(() => pair.close());

  it.each([
    ["reference", "latchkey"],
    ["latchkey", "reference"],
  ] as const)("made on %s (kept in Redis), redeemed once across ten parallel requests to both", async (maker, redeemer) => {
    const who = await signUp(pair[maker], user());
    const token = await generateOn(pair[maker], who);
    expect(await pair.stored(`verification:one-time-token:${token}`)).toMatchObject({ value: who.token });
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => verify(i % 2 ? pair[redeemer] : pair[maker], token)),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(await pair.stored(`verification:one-time-token:${token}`)).toBeNull();
  });
});

describe("one-time-token: error answers", () => {
  let pair: Pair;
  beforeAll(async () => {
    pair = await createPair({
      reference: { plugins: [referenceOneTimeToken({ disableClientRequest: false })] },
      latchkey: { plugins: [oneTimeToken()] },
    });
  });
  afterAll(() => pair.close());

  it.each([
    ["generate without a session", () => new Request(url("/one-time-token/generate"))],
    ["verify an unknown token", () => jsonPost("/one-time-token/verify", { token: "unknown" })],
    ["verify without a token", () => jsonPost("/one-time-token/verify", {})],
    ["verify a number", () => jsonPost("/one-time-token/verify", { token: 5 })],
  ])("%s", async (_name, request) => {
    const ref = await capture(await pair.reference(request()));
    const lk = await capture(await pair.latchkey(request()));
    expect(lk).toEqual(ref);
  });

  it("a session deleted: 400 Session not found on both", async () => {
    const who = await signUp(pair.reference, user());
    const tokens = [await generateOn(pair.reference, who), await generateOn(pair.latchkey, who)];
    pair.db.prepare("delete from session where token = ?").run([who.token]);
    const ref = await capture(await verify(pair.reference, tokens[0]!));
    const lk = await capture(await verify(pair.latchkey, tokens[1]!));
    expect(ref).toMatchObject({ status: 400, body: { message: "Session not found" } });
    expect(lk).toEqual(ref);
  });

  it("row 96: a session expired — both 400 Session expired; the reference also sets its session cookie, Latchkey sets none", async () => {
    const who = await signUp(pair.reference, user());
    const tokens = [await generateOn(pair.reference, who), await generateOn(pair.latchkey, who)];
    pair.db.prepare("update session set expiresAt = ? where token = ?").run([new Date(Date.now() - 60_000).toISOString(), who.token]);
    const ref = await capture(await verify(pair.reference, tokens[0]!));
    const lk = await capture(await verify(pair.latchkey, tokens[1]!));
    expect(ref.status).toBe(400);
    expect(ref.body).toEqual({ message: "Session expired" });
    expect(ref.setCookie.map((c) => c.name)).toContain("better-auth.session_token");
    expect(lk.status).toBe(400);
    expect(lk.body).toEqual(ref.body);
    expect(lk.setCookie).toEqual([]);
  });
});

describe("one-time-token: the reference's oneTimeTokenClient() over real HTTP", () => {
  async function flow(side: "reference" | "latchkey"): Promise<unknown> {
    const server = await listen();
    const pair = await createPair({
      baseURL: server.origin,
      reference: { plugins: [referenceOneTimeToken()] },
      latchkey: { plugins: [oneTimeToken()] },
    });
    server.use(pair[side]);
    try {
      const maker = jarFetch();
      const client = (fetchImpl: typeof maker.fetch) =>
        createAuthClient({ baseURL: `${server.origin}${BASE_PATH}`, fetchOptions: { customFetchImpl: fetchImpl }, plugins: [oneTimeTokenClient()] });
      const first = client(maker.fetch);
      await first.signUp.email({ email: "client@example.com", password: PASSWORD, name: "C" });
      const generated = await first.oneTimeToken.generate();
      const redeemer = jarFetch();
      const verified = await client(redeemer.fetch).oneTimeToken.verify({ token: generated.data!.token });
      const session = await client(redeemer.fetch).getSession();
      const replay = await client(jarFetch().fetch).oneTimeToken.verify({ token: generated.data!.token });
      return {
        token: /^[A-Za-z0-9_-]{32}$/.test(generated.data?.token ?? ""),
        generateError: generated.error,
        verifiedEmail: verified.data?.user.email,
        verifyError: verified.error,
        sessionEmail: session.data?.user.email,
        replay: { data: replay.data, error: replay.error },
        calls: [...maker.calls, ...redeemer.calls],
      };
    } finally {
      pair.close();
      await server.close();
    }
  }

  it("the same calls and results against both servers", async () => {
    const ref = await flow("reference");
    expect(ref).toMatchObject({ token: true, verifiedEmail: "client@example.com", sessionEmail: "client@example.com" });
    expect(await flow("latchkey")).toEqual(ref);
  });
});
