import { client, type TestAuth } from "@latchkey/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { claimAndApprove, deviceInstance, forgetLastPoll, GRANT_TYPE, issue, poll, signedIn } from "./instance.ts";

describe("device flow on SQLite", () => {
  let t: TestAuth;
  beforeAll(async () => {
    t = await deviceInstance("sqlite");
  });
  afterAll(() => t.close());

  it("/device/code answers RFC 8628 §3.2 fields, no-store, and stores the row (ms interval)", async () => {
    const answer = await client(t.auth).post<Record<string, unknown>>("/device/code", { client_id: "tv-app", scope: "openid profile" });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("cache-control")).toBe("no-store");
    expect(answer.headers.get("pragma")).toBe("no-cache");
    const body = answer.json!;
    expect(Object.keys(body).sort()).toEqual(["device_code", "expires_in", "interval", "user_code", "verification_uri", "verification_uri_complete"]);
    expect(body.device_code).toMatch(/^[a-zA-Z0-9]{40}$/);
    expect(body.user_code).toMatch(/^[ABCDEFGHJKLMNPQRSTUVWXYZ23456789]{8}$/);
    expect(body.verification_uri).toBe("http://localhost:3000/device");
    expect(body.verification_uri_complete).toBe(`http://localhost:3000/device?user_code=${String(body.user_code)}`);
    expect(body.expires_in).toBe(1800);
    expect(body.interval).toBe(5);
    const row = await t.auth.$context.adapter.findOne<Record<string, unknown>>({
      model: "deviceCode",
      where: [{ field: "deviceCode", value: String(body.device_code) }],
    });
    expect(row).toMatchObject({ status: "pending", pollingInterval: 5000, clientId: "tv-app", scope: "openid profile", userId: null });
    const lifetime = (row!.expiresAt as Date).getTime() - Date.now();
    expect(lifetime).toBeGreaterThan(1790_000);
    expect(lifetime).toBeLessThanOrEqual(1800_000);
  });

  it("accepts a url-encoded body, refuses a repeated parameter", async () => {
    const c = client(t.auth);
    const form = { "content-type": "application/x-www-form-urlencoded" };
    const ok = await c.post<{ device_code: string }>("/device/code", "client_id=tv-app&scope=a", { headers: form });
    expect(ok.status).toBe(200);
    const repeated = await c.post("/device/code", "client_id=tv-app&client_id=other", { headers: form });
    expect(repeated.status).toBe(400);
    expect(repeated.json).toEqual({ error: "invalid_request", error_description: "client_id must not be repeated" });
    expect(repeated.headers.get("cache-control")).toBe("no-store");
    const emptyRepeat = await c.post("/device/code", "client_id=tv-app&client_id=", { headers: form });
    expect(emptyRepeat.status).toBe(200);
  });

  it("refuses a missing or empty client_id with invalid_request", async () => {
    const c = client(t.auth);
    const empty = await c.post("/device/code", { client_id: "" });
    expect(empty.status).toBe(400);
    expect(empty.json).toEqual({ error: "invalid_request", error_description: "client_id is required" });
    const missing = await c.post<{ error: string; error_description: string }>("/device/code", { scope: "x" });
    expect(missing.status).toBe(400);
    expect(missing.json?.error).toBe("invalid_request");
    expect(missing.json?.error_description).toContain("client_id");
    expect(missing.headers.get("cache-control")).toBe("no-store");
  });

  it("pending → approved → one session; the code is gone afterwards", async () => {
    const codes = await issue(t);
    const pending = await poll(t, codes.device_code);
    expect(pending.status).toBe(400);
    expect(pending.json).toEqual({ error: "authorization_pending", error_description: "Authorization pending" });
    const { browser, userId } = await signedIn(t, "approver");
    await claimAndApprove(browser, codes.user_code);
    await forgetLastPoll(t, codes.device_code);
    const granted = await poll(t, codes.device_code);
    expect(granted.status).toBe(200);
    expect(granted.headers.get("cache-control")).toBe("no-store");
    expect(granted.headers.getSetCookie()).toEqual([]);
    const token = granted.json!;
    expect(token).toMatchObject({ token_type: "Bearer", scope: "" });
    expect(token.expires_in).toBeGreaterThan(604_790);
    const session = await t.auth.$context.internalAdapter.findSession(String(token.access_token));
    expect(session?.user.id).toBe(userId);
    const again = await poll(t, codes.device_code);
    expect(again.json).toEqual({ error: "invalid_grant", error_description: "Invalid device code" });
  });

  it("polling sooner than the interval is slow_down, and the interval then grows by 5 s (RFC 8628 §3.5)", async () => {
    const codes = await issue(t);
    await poll(t, codes.device_code);
    const fast = await poll(t, codes.device_code);
    expect(fast.json).toEqual({ error: "slow_down", error_description: "Polling too frequently" });
    const row = await t.auth.$context.adapter.findOne<{ pollingInterval: number }>({
      model: "deviceCode",
      where: [{ field: "deviceCode", value: codes.device_code }],
    });
    expect(row?.pollingInterval).toBe(10_000);
    // 6 s after the last accepted poll: past the announced 5 s, short of the raised 10 s.
    await t.auth.$context.adapter.updateMany({
      model: "deviceCode",
      where: [{ field: "deviceCode", value: codes.device_code }],
      update: { lastPolledAt: new Date(Date.now() - 6000) },
    });
    expect((await poll(t, codes.device_code)).json).toMatchObject({ error: "slow_down" });
    await t.auth.$context.adapter.updateMany({
      model: "deviceCode",
      where: [{ field: "deviceCode", value: codes.device_code }],
      update: { lastPolledAt: new Date(Date.now() - 16_000) },
    });
    expect((await poll(t, codes.device_code)).json).toMatchObject({ error: "authorization_pending" });
  });

  it("denied → access_denied once, then invalid_grant", async () => {
    const codes = await issue(t);
    const { browser } = await signedIn(t, "denier");
    await browser.get(`/device?user_code=${codes.user_code}`);
    expect((await browser.post("/device/deny", { userCode: codes.user_code })).json).toEqual({ success: true });
    expect((await poll(t, codes.device_code)).json).toEqual({ error: "access_denied", error_description: "Access denied" });
    await forgetLastPoll(t, codes.device_code);
    expect((await poll(t, codes.device_code)).json).toEqual({ error: "invalid_grant", error_description: "Invalid device code" });
  });

  it("an expired code is expired_token from its expiresAt instant, and the row is deleted", async () => {
    const codes = await issue(t);
    const { browser } = await signedIn(t, "late");
    await browser.get(`/device?user_code=${codes.user_code}`);
    await t.auth.$context.adapter.updateMany({
      model: "deviceCode",
      where: [{ field: "deviceCode", value: codes.device_code }],
      update: { expiresAt: new Date(Date.now()) },
    });
    expect((await browser.get(`/device?user_code=${codes.user_code}`)).json).toEqual({
      error: "expired_token",
      error_description: "User code has expired",
    });
    expect((await browser.post("/device/approve", { userCode: codes.user_code })).json).toEqual({
      error: "expired_token",
      error_description: "User code has expired",
    });
    expect((await poll(t, codes.device_code)).json).toEqual({ error: "expired_token", error_description: "Device code has expired" });
    expect(await t.auth.$context.adapter.count({ model: "deviceCode", where: [{ field: "deviceCode", value: codes.device_code }] })).toBe(0);
  });

  it("a code a minute from expiry still works", async () => {
    const codes = await issue(t);
    await t.auth.$context.adapter.updateMany({
      model: "deviceCode",
      where: [{ field: "deviceCode", value: codes.device_code }],
      update: { expiresAt: new Date(Date.now() + 60_000) },
    });
    expect((await poll(t, codes.device_code)).json).toMatchObject({ error: "authorization_pending" });
  });

  it("another client's code is invalid_grant Client ID mismatch", async () => {
    const codes = await issue(t);
    expect((await poll(t, codes.device_code, "other-app")).json).toEqual({ error: "invalid_grant", error_description: "Client ID mismatch" });
  });

  it("a wrong grant_type is refused by validation", async () => {
    const codes = await issue(t);
    const answer = await client(t.auth).post<{ code: string }>("/device/token", {
      grant_type: "authorization_code",
      device_code: codes.device_code,
      client_id: "tv-app",
    });
    expect(answer.status).toBe(400);
    expect(answer.json?.code).toBe("VALIDATION_ERROR");
  });

  it("/device/token accepts a url-encoded body (RFC 6749 §4.1.3)", async () => {
    const codes = await issue(t);
    const body = new URLSearchParams({ grant_type: GRANT_TYPE, device_code: codes.device_code, client_id: "tv-app" }).toString();
    const answer = await client(t.auth).post("/device/token", body, { headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(answer.json).toMatchObject({ error: "authorization_pending" });
  });

  it("GET /device: status for anyone, claim and client details for the signed-in owner only", async () => {
    const codes = await issue(t, "tv-app", { scope: "read" });
    const anonymous = await client(t.auth).get(`/device?user_code=${codes.user_code}`);
    expect(anonymous.json).toEqual({ user_code: codes.user_code, status: "pending" });
    const owner = await signedIn(t, "owner");
    const typed = `${codes.user_code.slice(0, 4).toLowerCase()}-${codes.user_code.slice(4)}`;
    const claimed = await owner.browser.get(`/device?user_code=${typed}`);
    expect(claimed.json).toEqual({ user_code: typed, status: "pending", client_id: "tv-app", scope: "read" });
    const intruder = await signedIn(t, "intruder");
    expect((await intruder.browser.get(`/device?user_code=${codes.user_code}`)).json).toEqual({ user_code: codes.user_code, status: "pending" });
    const refused = await intruder.browser.post("/device/approve", { userCode: codes.user_code });
    expect(refused.status).toBe(403);
    expect(refused.json).toEqual({ error: "access_denied", error_description: "You are not authorized to approve this device authorization" });
    expect((await intruder.browser.post("/device/deny", { userCode: codes.user_code })).json).toEqual({
      error: "access_denied",
      error_description: "You are not authorized to deny this device authorization",
    });
    expect((await owner.browser.post("/device/approve", { userCode: typed })).json).toEqual({ success: true });
    const twice = await owner.browser.post("/device/deny", { userCode: codes.user_code });
    expect(twice.json).toEqual({ error: "invalid_request", error_description: "Device code already processed" });
  });

  it("approve without a claim, without a session, and for an unknown code", async () => {
    const codes = await issue(t);
    const { browser } = await signedIn(t, "hasty");
    const unclaimed = await browser.post("/device/approve", { userCode: codes.user_code });
    expect(unclaimed.status).toBe(400);
    expect(unclaimed.json).toMatchObject({ error: "invalid_request", error_description: expect.stringContaining("has not been claimed") });
    const anonymous = await client(t.auth).post("/device/approve", { userCode: codes.user_code });
    expect(anonymous.status).toBe(401);
    expect(anonymous.json).toEqual({ error: "unauthorized", error_description: "Authentication required" });
    const unknown = await browser.post("/device/approve", { userCode: "NOPE2345" });
    expect(unknown.json).toEqual({ error: "invalid_request", error_description: "Invalid user code" });
    expect((await client(t.auth).get("/device?user_code=NOPE2345")).json).toEqual({
      error: "invalid_request",
      error_description: "Invalid user code",
    });
  });

  it("a user_id given at /device/code pre-binds the code to that user", async () => {
    const { browser, userId } = await signedIn(t, "prebound");
    const codes = await issue(t, "tv-app", { user_id: userId });
    expect((await browser.post("/device/approve", { userCode: codes.user_code })).json).toEqual({ success: true });
  });

  it("a deleted approver: invalid_grant User not found, not a 500", async () => {
    const codes = await issue(t);
    const { browser, userId } = await signedIn(t, "gone");
    await claimAndApprove(browser, codes.user_code);
    await t.auth.$context.adapter.deleteMany({ model: "session", where: [{ field: "userId", value: userId }] });
    await t.auth.$context.adapter.deleteMany({ model: "user", where: [{ field: "id", value: userId }] });
    const answer = await poll(t, codes.device_code);
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual({ error: "invalid_grant", error_description: "User not found" });
  });
});
