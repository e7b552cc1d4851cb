import { describe, expect, it } from "vitest";
import { banInForce } from "../src/ban-gate.ts";
import { adminInstance, client, member } from "./instance.ts";

/** Every duration of the plugin is seconds, as the reference documents; each boundary checked. */
describe("units and boundaries", () => {
  it("a ban is in force until and at its end, lifted just after", () => {
    const now = 1_800_000_000_000;
    const user = { id: "u", email: "e", name: "n", banned: true };
    expect(banInForce({ ...user, banExpires: null }, now)).toBe(true);
    expect(banInForce({ ...user, banExpires: new Date(now) }, now)).toBe(true);
    expect(banInForce({ ...user, banExpires: new Date(now - 1) }, now)).toBe(false);
    expect(banInForce({ ...user, banned: false, banExpires: new Date(now + 1000) }, now)).toBe(false);
  });

  it("defaultBanExpiresIn and banExpiresIn are seconds; the default impersonation lasts 3600 s", async () => {
    const t = await adminInstance("sqlite", { defaultBanExpiresIn: 30, defaultBanReason: "house rules" });
    try {
      const root = await member(t, "units-root", "admin");
      const target = await member(t, "units-target");
      const before = Date.now();
      const banned = await root.browser.post<{ user: { banExpires: string; banReason: string } }>("/admin/ban-user", { userId: target.id });
      const ends = new Date(banned.json!.user.banExpires).getTime();
      expect(banned.json!.user.banReason).toBe("house rules");
      expect(ends).toBeGreaterThanOrEqual(before + 30_000);
      expect(ends).toBeLessThanOrEqual(Date.now() + 30_000);
      const short = await root.browser.post<{ user: { banExpires: string } }>("/admin/ban-user", { userId: target.id, banExpiresIn: 0.5 });
      expect(new Date(short.json!.user.banExpires).getTime() - Date.now()).toBeLessThanOrEqual(500);
      await root.browser.post("/admin/unban-user", { userId: target.id });
      const browser = client(t.auth);
      browser.jar.values.set("better-auth.session_token", root.browser.jar.values.get("better-auth.session_token")!);
      const start = Date.now();
      const imp = await browser.post<{ session: { expiresAt: string } }>("/admin/impersonate-user", { userId: target.id });
      const impEnds = new Date(imp.json!.session.expiresAt).getTime();
      expect(impEnds).toBeGreaterThanOrEqual(start + 3_600_000);
      expect(impEnds).toBeLessThanOrEqual(Date.now() + 3_600_000);
    } finally {
      await t.close();
    }
  });
});

describe("@latchkey/admin/access", () => {
  it("re-exports the admin statements and roles of @latchkey/access/admin", async () => {
    const entry = await import("@latchkey/admin/access");
    const source = await import("@latchkey/access/admin");
    expect(entry.defaultStatements).toBe(source.defaultStatements);
    expect(entry.defaultRoles).toBe(source.defaultRoles);
    expect(entry.adminAc.authorize({ user: ["ban"] })).toEqual({ success: true });
    expect(entry.userAc.authorize({ user: ["ban"] }).success).toBe(false);
    expect(entry.defaultAc.statements).toBe(source.defaultStatements);
  });
});
