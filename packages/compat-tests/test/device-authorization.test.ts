import { createAuthClient } from "better-auth/client";
import { deviceAuthorizationClient } from "better-auth/client/plugins";
import { deviceAuthorization as referenceDeviceAuthorization } from "better-auth/plugins";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deviceAuthorization, type DeviceAuthorizationOptions } from "@latchkey/device-authorization";
import { capture, type Captured } from "./support/capture.ts";
import { jarFetch } from "./support/client-fetch.ts";
import { signUp, type SignedIn } from "./support/flows.ts";
import { BASE_PATH, createPair, jsonPost, url, type Handler, type Pair } from "./support/instances.ts";
import { listen, type LiveServer } from "./support/server.ts";

/**
 * `@latchkey/device-authorization` beside the reference's `deviceAuthorization()` on one
 * database: codes issued by one side are claimed, approved and redeemed on the other; every
 * route's answers compared; divergence rows 115-119; the reference's
 * `deviceAuthorizationClient()` against Latchkey over HTTP.
 */
const GRANT_TYPE = "urn:ietf:params:oauth:grant-type:device_code";
const PASSWORD = "password-1234";
type Side = "reference" | "latchkey";
const SIDES: Side[] = ["reference", "latchkey"];
let n = 0;
const user = () => ({ email: `device-${++n}@example.com`, password: PASSWORD, name: "D" });

interface Codes {
  device_code: string;
  user_code: string;
}

const pairWith = (options: Record<string, unknown> = {}, extra: { reference?: object; latchkey?: object } = {}): Promise<Pair> =>
  createPair({
    reference: { plugins: [referenceDeviceAuthorization(options)], ...extra.reference },
    latchkey: { plugins: [deviceAuthorization(options as DeviceAuthorizationOptions)], ...extra.latchkey },
  });

async function issue(handler: Handler, body: Record<string, string> = { client_id: "tv-app" }): Promise<Codes> {
  const response = await handler(jsonPost("/device/code", body));
  const text = await response.text();
  if (response.status !== 200) throw new Error(`device/code: ${response.status} ${text}`);
  return JSON.parse(text) as Codes;
}
const poll = (handler: Handler, deviceCode: string, clientId = "tv-app"): Promise<Response> =>
  handler(jsonPost("/device/token", { grant_type: GRANT_TYPE, device_code: deviceCode, client_id: clientId }));
const verify = (handler: Handler, userCode: string, cookie?: string): Promise<Response> =>
  handler(new Request(url(`/device?user_code=${encodeURIComponent(userCode)}`), { headers: cookie ? { cookie } : {} }));
const decide = (handler: Handler, verb: "approve" | "deny", userCode: string, cookie?: string): Promise<Response> =>
  handler(jsonPost(`/device/${verb}`, { userCode }, cookie ? { cookie } : {}));
const formPost = (path: string, body: string): Request =>
  new Request(url(path), { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body });
const forgetLastPoll = (pair: Pair, deviceCode: string): void => {
  pair.db.prepare(`update deviceCode set lastPolledAt = null where deviceCode = ?`).run([deviceCode]);
};

/** Status, the no-store headers and the body with each side's freshly minted values tagged. */
async function wire(response: Response, codes?: Partial<Codes>): Promise<Omit<Captured, "setCookie"> & { cookies: number }> {
  const got = await capture(response);
  const minted = got.body as Partial<Codes> | null;
  codes ??= { device_code: minted?.device_code, user_code: minted?.user_code };
  const mask = (value: unknown): unknown => {
    if (typeof value !== "string") return value;
    let out = value;
    if (codes?.device_code) out = out.replaceAll(codes.device_code, "<device_code>");
    if (codes?.user_code) out = out.replaceAll(codes.user_code, "<user_code>");
    return out;
  };
  const body =
    got.body && typeof got.body === "object"
      ? Object.fromEntries(
          Object.entries(got.body as Record<string, unknown>).map(([k, v]) => [
            k,
            k === "device_code" || k === "user_code" || k === "access_token" ? `<${k}>` : mask(v),
          ]),
        )
      : got.body;
  return { status: got.status, headers: got.headers, bodyKind: got.bodyKind, body, cookies: got.setCookie.length };
}

describe("device-authorization: codes cross between the two", () => {
  let pair: Pair;
  beforeAll(async () => {
    pair = await pairWith();
  });
  afterAll(() => pair.close());

  it("the same table: createTables adds nothing to the reference's deviceCode, and the same indexes", () => {
    const columns = (pair.db.prepare(`pragma table_info(deviceCode)`).all([]) as Array<{ name: string }>).map((c) => c.name).sort();
    expect(columns).toEqual(
      ["clientId", "deviceCode", "expiresAt", "id", "lastPolledAt", "pollingInterval", "scope", "status", "userCode", "userId"].sort(),
    );
    const unique = (pair.db.prepare(`pragma index_list(deviceCode)`).all([]) as Array<{ name: string; unique: number }>)
      .filter((i) => i.unique)
      .map((i) => (pair.db.prepare(`pragma index_info("${i.name}")`).all([]) as Array<{ name: string }>).map((c) => c.name).join(","));
    expect(unique.sort()).toEqual(expect.arrayContaining(["deviceCode", "userCode"]));
  });

  it("the same stored row for a new code (pollingInterval in ms)", async () => {
    const rows = [];
    for (const side of SIDES) {
      const codes = await issue(pair[side], { client_id: "tv-app", scope: "read" });
      const row = pair.db.prepare(`select * from deviceCode where deviceCode = ?`).all([codes.device_code])[0] as Record<string, unknown>;
      rows.push({ ...row, id: typeof row.id, deviceCode: typeof row.deviceCode, userCode: typeof row.userCode, expiresAt: typeof row.expiresAt });
    }
    expect(rows[1]).toEqual(rows[0]);
    expect(rows[0]).toMatchObject({ pollingInterval: 5000, status: "pending", clientId: "tv-app", scope: "read", userId: null });
  });

  it.each([
    ["reference", "latchkey"],
    ["latchkey", "reference"],
  ] as const)("issued on %s, claimed and approved on %s, redeemed on the issuer", async (issuer, approver) => {
    const codes = await issue(pair[issuer]);
    const who: SignedIn = await signUp(pair[approver], user());
    expect((await verify(pair[approver], codes.user_code, who.cookie)).status).toBe(200);
    expect(await (await decide(pair[approver], "approve", codes.user_code, who.cookie)).json()).toEqual({ success: true });
    const granted = await poll(pair[issuer], codes.device_code);
    expect(granted.status).toBe(200);
    const token = ((await granted.json()) as { access_token: string }).access_token;
    // The access token is a session row of the approving user, whichever side minted it.
    const row = pair.db.prepare(`select userId from session where token = ?`).all([token])[0] as { userId: string } | undefined;
    expect(row?.userId).toBe(who.userId);
    for (const side of SIDES) {
      expect(await (await poll(pair[side], codes.device_code)).json()).toEqual({ error: "invalid_grant", error_description: "Invalid device code" });
    }
  });

  it("claimed on one side, denied on the other: access_denied on either", async () => {
    const codes = await issue(pair.latchkey);
    const who = await signUp(pair.reference, user());
    await verify(pair.reference, codes.user_code, who.cookie);
    expect((await decide(pair.latchkey, "deny", codes.user_code, who.cookie)).status).toBe(200);
    expect(await (await poll(pair.reference, codes.device_code)).json()).toEqual({ error: "access_denied", error_description: "Access denied" });
  });

  it("ten parallel polls of an approved code, five on each side: one session", async () => {
    const codes = await issue(pair.reference);
    const who = await signUp(pair.latchkey, user());
    await verify(pair.latchkey, codes.user_code, who.cookie);
    await decide(pair.latchkey, "approve", codes.user_code, who.cookie);
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => poll(pair[SIDES[i % 2]!], codes.device_code)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    const sessions = pair.db.prepare(`select count(*) as c from session where userId = ?`).all([who.userId])[0] as { c: number };
    expect(sessions.c).toBe(2);
  });
});

describe("device-authorization: the same answers", () => {
  let pair: Pair;
  beforeAll(async () => {
    pair = await pairWith();
  });
  afterAll(() => pair.close());

  /** Runs `scenario` on each side with its own codes and compares what it answers. */
  async function same(scenario: (handler: Handler, side: Side) => Promise<Awaited<ReturnType<typeof wire>>>): Promise<void> {
    const ref = await scenario(pair.reference, "reference");
    const lk = await scenario(pair.latchkey, "latchkey");
    expect(lk).toEqual(ref);
  }

  it("/device/code success (JSON and form)", async () => {
    await same(async (h) => wire(await h(jsonPost("/device/code", { client_id: "tv-app", scope: "a b" }))));
    await same(async (h) =>
      wire(await h(formPost("/device/code", "client_id=tv-app&scope=a&scope="))),
    );
  });

  it.each([
    ["empty client_id", { client_id: "" }],
    ["client_id as a number", { client_id: 5 }],
  ])("/device/code refusal: %s", async (_, body) => {
    await same(async (h) => {
      const got = await wire(await h(jsonPost("/device/code", body)));
      // Row 119: Latchkey sends no-store on validation refusals too.
      return { ...got, headers: { ...got.headers, "cache-control": null, pragma: null } };
    });
  });

  it("/device/code: a repeated form parameter", async () => {
    await same(async (h) =>
      wire(await h(formPost("/device/code", "client_id=a&client_id=b"))),
    );
  });

  it("/device/token: pending, slow_down, mismatch, unknown, approved, replay", async () => {
    await same(async (h, side) => {
      const codes = await issue(h);
      const pending = await wire(await poll(h, codes.device_code), codes);
      const fast = await wire(await poll(h, codes.device_code), codes);
      const mismatch = await wire(await poll(h, codes.device_code, "other"), codes);
      const unknown = await wire(await poll(h, "never-issued"), codes);
      const who = await signUp(pair[side], user());
      await verify(h, codes.user_code, who.cookie);
      await decide(h, "approve", codes.user_code, who.cookie);
      forgetLastPoll(pair, codes.device_code);
      const granted = await wire(await poll(h, codes.device_code), codes);
      const replay = await wire(await poll(h, codes.device_code), codes);
      return { status: 0, headers: granted.headers, bodyKind: "json", body: { pending, fast, mismatch, unknown, granted, replay }, cookies: 0 };
    });
  });

  it("/device/token: expired and denied", async () => {
    await same(async (h, side) => {
      const codes = await issue(h);
      pair.db.prepare(`update deviceCode set expiresAt = ? where deviceCode = ?`).run([new Date(Date.now() - 1000).toISOString(), codes.device_code]);
      const expired = await wire(await poll(h, codes.device_code), codes);
      const other = await issue(h);
      const who = await signUp(pair[side], user());
      await verify(h, other.user_code, who.cookie);
      await decide(h, "deny", other.user_code, who.cookie);
      const denied = await wire(await poll(h, other.device_code), other);
      return { status: 0, headers: denied.headers, bodyKind: "json", body: { expired, denied }, cookies: 0 };
    });
  });

  it("/device/token: a wrong grant_type", async () => {
    await same(async (h) => {
      const got = await wire(await h(jsonPost("/device/token", { grant_type: "password", device_code: "x", client_id: "tv-app" })));
      return { ...got, headers: { ...got.headers, "cache-control": null, pragma: null } };
    });
  });

  it("GET /device for the owner of a code issued without a scope", async () => {
    await same(async (h, side) => {
      const codes = await issue(h);
      const owner = await signUp(pair[side], user());
      return wire(await verify(h, codes.user_code, owner.cookie), codes);
    });
  });

  it("GET /device, approve and deny: every answer", async () => {
    await same(async (h, side) => {
      const codes = await issue(h, { client_id: "tv-app", scope: "s" });
      const owner = await signUp(pair[side], user());
      const other = await signUp(pair[side], user());
      const lower = `${codes.user_code.slice(0, 4).toLowerCase()}-${codes.user_code.slice(4)}`;
      const answers = {
        anonymous: await wire(await verify(h, codes.user_code), codes),
        unknown: await wire(await verify(h, "ZZZZZZZZ"), codes),
        unclaimedApprove: await wire(await decide(h, "approve", codes.user_code, owner.cookie), codes),
        noSession: await wire(await decide(h, "approve", codes.user_code), codes),
        claim: await wire(await verify(h, lower, owner.cookie), codes),
        otherView: await wire(await verify(h, codes.user_code, other.cookie), codes),
        otherApprove: await wire(await decide(h, "approve", codes.user_code, other.cookie), codes),
        otherDeny: await wire(await decide(h, "deny", codes.user_code, other.cookie), codes),
        unknownDeny: await wire(await decide(h, "deny", "ZZZZZZZZ", owner.cookie), codes),
        approve: await wire(await decide(h, "approve", lower, owner.cookie), codes),
        again: await wire(await decide(h, "deny", codes.user_code, owner.cookie), codes),
        afterView: await wire(await verify(h, codes.user_code, owner.cookie), codes),
      };
      pair.db.prepare(`update deviceCode set expiresAt = ? where deviceCode = ?`).run([new Date(Date.now() - 1000).toISOString(), codes.device_code]);
      const expired = await wire(await verify(h, codes.user_code, owner.cookie), codes);
      return { status: 0, headers: expired.headers, bodyKind: "json", body: { ...answers, expired }, cookies: 0 };
    });
  });
});

describe("device-authorization: divergences", () => {
  let pair: Pair;
  beforeAll(async () => {
    pair = await pairWith({ interval: "1.5s" });
  });
  afterAll(() => pair.close());

  it("row 115: after slow_down the reference keeps the interval; Latchkey adds 5 s (RFC 8628 §3.5)", async () => {
    const after: Record<string, unknown> = {};
    for (const side of SIDES) {
      const codes = await issue(pair[side]);
      await poll(pair[side], codes.device_code);
      expect(await (await poll(pair[side], codes.device_code)).json()).toMatchObject({ error: "slow_down" });
      const row = pair.db.prepare(`select pollingInterval from deviceCode where deviceCode = ?`).all([codes.device_code])[0] as { pollingInterval: number };
      // 3 s after the last accepted poll: past the announced interval.
      pair.db.prepare(`update deviceCode set lastPolledAt = ? where deviceCode = ?`).run([new Date(Date.now() - 3000).toISOString(), codes.device_code]);
      after[side] = { stored: row.pollingInterval, next: ((await (await poll(pair[side], codes.device_code)).json()) as { error: string }).error };
    }
    expect(after.reference).toEqual({ stored: 1500, next: "authorization_pending" });
    expect(after.latchkey).toEqual({ stored: 6500, next: "slow_down" });
  });

  it("row 116: /device/token with a url-encoded body: the reference 415, Latchkey serves it (RFC 8628 §3.4)", async () => {
    const statuses: Record<string, unknown> = {};
    for (const side of SIDES) {
      const codes = await issue(pair[side]);
      const form = new URLSearchParams({ grant_type: GRANT_TYPE, device_code: codes.device_code, client_id: "tv-app" });
      const response = await pair[side](formPost("/device/token", form.toString()));
      statuses[side] = { status: response.status, body: await response.json() };
    }
    expect(statuses.reference).toMatchObject({ status: 415 });
    expect(statuses.latchkey).toEqual({ status: 400, body: { error: "authorization_pending", error_description: "Authorization pending" } });
  });

  it("row 117: interval \"1.5s\" is announced as 1 by the reference (then slow_down at 1 s), as 2 by Latchkey", async () => {
    const announced: Record<string, number> = {};
    for (const side of SIDES) announced[side] = ((await (await pair[side](jsonPost("/device/code", { client_id: "tv-app" }))).json()) as { interval: number }).interval;
    expect(announced).toEqual({ reference: 1, latchkey: 2 });
  });

  it("row 118: an approved code whose user was deleted: the reference 500 server_error, Latchkey 400 invalid_grant", async () => {
    const got: Record<string, unknown> = {};
    for (const side of SIDES) {
      const codes = await issue(pair[side]);
      const who = await signUp(pair[side], user());
      await verify(pair[side], codes.user_code, who.cookie);
      await decide(pair[side], "approve", codes.user_code, who.cookie);
      pair.db.prepare(`delete from session where userId = ?`).run([who.userId]);
      pair.db.prepare(`delete from user where id = ?`).run([who.userId]);
      const response = await poll(pair[side], codes.device_code);
      got[side] = { status: response.status, body: await response.json() };
    }
    expect(got.reference).toEqual({ status: 500, body: { error: "server_error", error_description: "User not found" } });
    expect(got.latchkey).toEqual({ status: 400, body: { error: "invalid_grant", error_description: "User not found" } });
  });

  it("row 119: validation refusals of /device/code and /device/token: no-store on Latchkey only", async () => {
    const got: Record<string, unknown> = {};
    for (const side of SIDES) {
      const code = await pair[side](jsonPost("/device/code", {}));
      const token = await pair[side](jsonPost("/device/token", {}));
      got[side] = [code.status, code.headers.get("cache-control"), token.status, token.headers.get("cache-control")];
    }
    expect(got.reference).toEqual([400, null, 400, null]);
    expect(got.latchkey).toEqual([400, "no-store", 400, "no-store"]);
  });
});

describe("device-authorization: the rate limit on GET /device", () => {
  let pair: Pair;
  beforeAll(async () => {
    const limits = { rateLimit: { enabled: true, storage: "memory" as const } };
    pair = await pairWith({}, { reference: limits, latchkey: limits });
  });
  afterAll(() => pair.close());

  it("five lookups per expiresIn window, then 429 with the same retry hint", async () => {
    const got: Record<string, unknown> = {};
    for (const side of SIDES) {
      const answers = [];
      for (let i = 0; i < 6; i++) {
        const response = await pair[side](new Request(url("/device?user_code=ZZZZZZZZ"), { headers: { "x-forwarded-for": "203.0.113.9" } }));
        answers.push([response.status, response.headers.get("x-retry-after")]);
      }
      got[side] = answers;
    }
    expect(got.latchkey).toEqual(got.reference);
    expect((got.reference as unknown[][]).map((a) => a[0])).toEqual([400, 400, 400, 400, 400, 429]);
  });
});

describe("device-authorization: the reference's deviceAuthorizationClient against Latchkey over HTTP", () => {
  let server: LiveServer;
  let pair: Pair;
  beforeAll(async () => {
    server = await listen();
    pair = await createPair({
      baseURL: server.origin,
      reference: { plugins: [referenceDeviceAuthorization()] },
      latchkey: { plugins: [deviceAuthorization()] },
    });
    server.use(pair.latchkey);
  });
  afterAll(async () => {
    await server.close();
    pair.close();
  });

  const make = () => {
    const jar = jarFetch();
    const auth = createAuthClient({
      baseURL: `${server.origin}${BASE_PATH}`,
      fetchOptions: { customFetchImpl: jar.fetch },
      plugins: [deviceAuthorizationClient()],
    });
    return { auth, jar };
  };

  it("code → device → approve → token, with the reference's method names", async () => {
    const tv = make();
    const { data: codes, error } = await tv.auth.device.code({ client_id: "tv-app", scope: "profile" });
    expect(error).toBeNull();
    const pending = await tv.auth.device.token({ grant_type: GRANT_TYPE, device_code: codes!.device_code, client_id: "tv-app" });
    expect(pending.error).toMatchObject({ status: 400, error: "authorization_pending", error_description: "Authorization pending" });
    const phone = make();
    expect((await phone.auth.signUp.email(user())).error).toBeNull();
    const seen = await phone.auth.device({ query: { user_code: codes!.user_code } });
    expect(seen.data).toEqual({ user_code: codes!.user_code, status: "pending", client_id: "tv-app", scope: "profile" });
    expect((await phone.auth.device.approve({ userCode: codes!.user_code })).data).toEqual({ success: true });
    forgetLastPoll(pair, codes!.device_code);
    const token = await tv.auth.device.token({ grant_type: GRANT_TYPE, device_code: codes!.device_code, client_id: "tv-app" });
    expect(token.data).toMatchObject({ token_type: "Bearer", scope: "profile" });
    const other = (await tv.auth.device.code({ client_id: "tv-app" })).data!;
    await phone.auth.device({ query: { user_code: other.user_code } });
    expect((await phone.auth.device.deny({ userCode: other.user_code })).data).toEqual({ success: true });
    expect(tv.jar.calls.every((c) => c.startsWith("POST /api/auth/device/"))).toBe(true);
  });
});
