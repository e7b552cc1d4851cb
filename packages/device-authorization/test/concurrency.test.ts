import type { DatabaseKind, TestAuth } from "@latchkey/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { claimAndApprove, deviceInstance, issue, poll, signedIn } from "./instance.ts";

// Single use: an approved code polled by ten clients at once yields exactly one session.
describe.each<DatabaseKind>(["sqlite", "postgres", "mysql"])("ten parallel redemptions on %s", (kind) => {
  let t: TestAuth;
  beforeAll(async () => {
    t = await deviceInstance(kind);
  });
  afterAll(() => t.close());

  it("one 200, nine invalid_grant, one session, the row gone", async () => {
    const codes = await issue(t);
    const { browser, userId } = await signedIn(t, `race-${kind}`);
    await claimAndApprove(browser, codes.user_code);
    const answers = await Promise.all(Array.from({ length: 10 }, () => poll(t, codes.device_code)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    const refused = answers.filter((a) => a.status !== 200);
    expect(refused).toHaveLength(9);
    // A poll that read the row after another recorded its poll is told to slow down instead.
    for (const answer of refused) expect(["invalid_grant", "slow_down"]).toContain((answer.json as { error: string }).error);
    expect(await t.auth.$context.adapter.count({ model: "session", where: [{ field: "userId", value: userId }] })).toBe(2);
    expect(await t.auth.$context.adapter.count({ model: "deviceCode" })).toBe(0);
  });

  it("two users claiming one code at once: one owns it", async () => {
    const codes = await issue(t);
    const visitors = await Promise.all([signedIn(t, `a-${kind}`), signedIn(t, `b-${kind}`)]);
    const seen = await Promise.all(visitors.map((v) => v.browser.get<Record<string, unknown>>(`/device?user_code=${codes.user_code}`)));
    expect(seen.filter((s) => s.json?.client_id === "tv-app")).toHaveLength(1);
    const owner = seen.findIndex((s) => s.json?.client_id === "tv-app");
    expect((await visitors[1 - owner]!.browser.post("/device/approve", { userCode: codes.user_code })).status).toBe(403);
    expect((await visitors[owner]!.browser.post("/device/approve", { userCode: codes.user_code })).status).toBe(200);
  });

  it("approve and deny at once from the owner: exactly one decision", async () => {
    const codes = await issue(t);
    const { browser } = await signedIn(t, `decide-${kind}`);
    await browser.get(`/device?user_code=${codes.user_code}`);
    const both = await Promise.all([
      browser.post("/device/approve", { userCode: codes.user_code }),
      browser.post("/device/deny", { userCode: codes.user_code }),
    ]);
    expect(both.map((a) => a.status).sort()).toEqual([200, 400]);
  });
});

describe.each<DatabaseKind>(["postgres", "mysql"])("the deviceCode table on %s", (kind) => {
  let t: TestAuth;
  beforeAll(async () => {
    t = await deviceInstance(kind);
  });
  afterAll(() => t.close());

  it("refuses a second row with the same user code (unique index)", async () => {
    const codes = await issue(t);
    const row = { deviceCode: "x".repeat(40), userCode: codes.user_code, expiresAt: new Date(Date.now() + 60_000), status: "pending" };
    await expect(t.auth.$context.adapter.create({ model: "deviceCode", data: { id: "dup-1", ...row } })).rejects.toThrow();
  });

  it("a 191-character custom code is stored and found", async () => {
    const long = "Z".repeat(191);
    await t.auth.$context.adapter.create({
      model: "deviceCode",
      data: { id: "long-1", deviceCode: long, userCode: long, expiresAt: new Date(Date.now() + 60_000), status: "pending" },
    });
    expect((await poll(t, long, "anyone")).json).toMatchObject({ error: "authorization_pending" });
  });
});
