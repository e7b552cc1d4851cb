import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminRequest, createAdminPair, signUp, type PairUser } from "./support/admin-pair.ts";
import { normalizeCaptured } from "./support/normalize.ts";
import { sendBoth } from "./support/send-both.ts";
import type { Pair } from "./support/instances.ts";

/**
 * Every admin route's success and error answers, sent to both sides from the same stored rows
 * (`sendBoth` restores the tables between them): status, JSON body (minted ids, tokens and dates
 * masked, stored ones literal), Set-Cookie lines and the rows written must be the same.
 */
interface WireCase {
  name: string;
  method: "GET" | "POST";
  path: string;
  /** Whose cookie: the administrator, a plain user, or none. */
  as: "root" | "plain" | "none";
  body?: unknown;
  /** The status the reference answers: pinned, so a broken harness cannot make both equal. */
  status: number;
}

let pair: Pair;
let root: PairUser;
let plain: PairUser;
let target: PairUser;
let other: PairUser;

const cases = (): WireCase[] => [
  // set-role
  { name: "set-role", method: "POST", path: "/admin/set-role", as: "root", body: { userId: target.id, role: "admin" }, status: 200 },
  { name: "set-role with a list", method: "POST", path: "/admin/set-role", as: "root", body: { userId: target.id, role: ["user", "admin"] }, status: 200 },
  { name: "set-role, unknown user", method: "POST", path: "/admin/set-role", as: "root", body: { userId: "nope", role: "user" }, status: 404 },
  // get-user
  { name: "get-user", method: "GET", path: `/admin/get-user?id=${target.id}`, as: "root", status: 200 },
  { name: "get-user, unknown", method: "GET", path: "/admin/get-user?id=nope", as: "root", status: 404 },
  { name: "get-user without id", method: "GET", path: "/admin/get-user", as: "root", status: 400 },
  // create-user
  { name: "create-user", method: "POST", path: "/admin/create-user", as: "root", body: { email: "New@Example.com", password: "password-1234", name: "New", role: ["user", "admin"], data: { image: "https://example.com/i.png" } }, status: 200 },
  { name: "create-user without password", method: "POST", path: "/admin/create-user", as: "root", body: { email: "nopw@example.com", name: "No" }, status: 200 },
  { name: "create-user, taken email", method: "POST", path: "/admin/create-user", as: "root", body: { email: target.email, password: "password-1234", name: "x" }, status: 400 },
  { name: "create-user, invalid email", method: "POST", path: "/admin/create-user", as: "root", body: { email: "not-an-email", name: "x" }, status: 400 },
  { name: "create-user, password too long", method: "POST", path: "/admin/create-user", as: "root", body: { email: "long@example.com", password: "x".repeat(200), name: "x" }, status: 400 },
  { name: "create-user, no session", method: "POST", path: "/admin/create-user", as: "none", body: { email: "anon@example.com", name: "x" }, status: 401 },
  // update-user
  { name: "update-user", method: "POST", path: "/admin/update-user", as: "root", body: { userId: target.id, data: { name: "Renamed", email: "Renamed@Example.com" } }, status: 200 },
  { name: "update-user, ban through data", method: "POST", path: "/admin/update-user", as: "root", body: { userId: target.id, data: { banned: true, banReason: "x" } }, status: 200 },
  { name: "update-user, empty data", method: "POST", path: "/admin/update-user", as: "root", body: { userId: target.id, data: {} }, status: 400 },
  { name: "update-user, password", method: "POST", path: "/admin/update-user", as: "root", body: { userId: target.id, data: { password: "x" } }, status: 400 },
  { name: "update-user, taken email", method: "POST", path: "/admin/update-user", as: "root", body: { userId: target.id, data: { email: other.email } }, status: 400 },
  { name: "update-user, ban oneself", method: "POST", path: "/admin/update-user", as: "root", body: { userId: root.id, data: { banned: true } }, status: 400 },
  { name: "update-user, unknown user", method: "POST", path: "/admin/update-user", as: "root", body: { userId: "nope", data: { name: "x" } }, status: 404 },
  // list-users
  { name: "list-users", method: "GET", path: "/admin/list-users?sortBy=email", as: "root", status: 200 },
  { name: "list-users, search and paging", method: "GET", path: "/admin/list-users?searchValue=ta&searchField=email&searchOperator=starts_with&limit=1&offset=0&sortBy=email&sortDirection=desc", as: "root", status: 200 },
  { name: "list-users, name contains", method: "GET", path: "/admin/list-users?searchValue=ARG&searchField=name&sortBy=email", as: "root", status: 200 },
  { name: "list-users, filter", method: "GET", path: "/admin/list-users?filterField=role&filterValue=admin&filterOperator=eq", as: "root", status: 200 },
  { name: "list-users, offset", method: "GET", path: "/admin/list-users?limit=2&offset=2&sortBy=createdAt", as: "root", status: 200 },
  { name: "list-users, unknown sort field", method: "GET", path: "/admin/list-users?sortBy=nope", as: "root", status: 200 },
  { name: "list-users, bad operator", method: "GET", path: "/admin/list-users?searchValue=a&searchOperator=like", as: "root", status: 400 },
  // sessions
  { name: "list-user-sessions", method: "POST", path: "/admin/list-user-sessions", as: "root", body: { userId: target.id }, status: 200 },
  { name: "revoke-user-session", method: "POST", path: "/admin/revoke-user-session", as: "root", body: { sessionToken: target.token }, status: 200 },
  { name: "revoke-user-sessions", method: "POST", path: "/admin/revoke-user-sessions", as: "root", body: { userId: target.id }, status: 200 },
  // bans
  { name: "ban-user", method: "POST", path: "/admin/ban-user", as: "root", body: { userId: target.id, banReason: "spam", banExpiresIn: 3600 }, status: 200 },
  { name: "ban-user, default reason", method: "POST", path: "/admin/ban-user", as: "root", body: { userId: target.id }, status: 200 },
  { name: "ban-user, oneself", method: "POST", path: "/admin/ban-user", as: "root", body: { userId: root.id }, status: 400 },
  { name: "ban-user, unknown", method: "POST", path: "/admin/ban-user", as: "root", body: { userId: "nope" }, status: 404 },
  { name: "ban-user, string expiry", method: "POST", path: "/admin/ban-user", as: "root", body: { userId: target.id, banExpiresIn: "60" }, status: 400 },
  { name: "unban-user", method: "POST", path: "/admin/unban-user", as: "root", body: { userId: target.id }, status: 200 },
  { name: "unban-user, unknown", method: "POST", path: "/admin/unban-user", as: "root", body: { userId: "nope" }, status: 404 },
  // impersonation
  { name: "impersonate-user", method: "POST", path: "/admin/impersonate-user", as: "root", body: { userId: target.id }, status: 200 },
  { name: "impersonate-user, an admin", method: "POST", path: "/admin/impersonate-user", as: "root", body: { userId: other.id }, status: 403 },
  { name: "impersonate-user, unknown", method: "POST", path: "/admin/impersonate-user", as: "root", body: { userId: "nope" }, status: 404 },
  { name: "stop-impersonating, not impersonating", method: "POST", path: "/admin/stop-impersonating", as: "root", status: 400 },
  { name: "stop-impersonating, no session", method: "POST", path: "/admin/stop-impersonating", as: "none", status: 401 },
  // remove-user, set-user-password, has-permission
  { name: "remove-user", method: "POST", path: "/admin/remove-user", as: "root", body: { userId: target.id }, status: 200 },
  { name: "remove-user, oneself", method: "POST", path: "/admin/remove-user", as: "root", body: { userId: root.id }, status: 400 },
  { name: "remove-user, unknown", method: "POST", path: "/admin/remove-user", as: "root", body: { userId: "nope" }, status: 404 },
  { name: "set-user-password", method: "POST", path: "/admin/set-user-password", as: "root", body: { userId: target.id, newPassword: "another-password" }, status: 200 },
  { name: "set-user-password, too short", method: "POST", path: "/admin/set-user-password", as: "root", body: { userId: target.id, newPassword: "short" }, status: 400 },
  { name: "set-user-password, empty", method: "POST", path: "/admin/set-user-password", as: "root", body: { userId: target.id, newPassword: "" }, status: 400 },
  { name: "set-user-password, unknown", method: "POST", path: "/admin/set-user-password", as: "root", body: { userId: "nope", newPassword: "another-password" }, status: 404 },
  { name: "has-permission", method: "POST", path: "/admin/has-permission", as: "root", body: { permissions: { user: ["ban"], session: ["revoke"] } }, status: 200 },
  { name: "has-permission, denied", method: "POST", path: "/admin/has-permission", as: "plain", body: { permissions: { user: ["ban"] } }, status: 200 },
  { name: "has-permission, nothing asked", method: "POST", path: "/admin/has-permission", as: "root", body: { permissions: undefined, userId: root.id }, status: 400 },
  { name: "has-permission, no session", method: "POST", path: "/admin/has-permission", as: "none", body: { permissions: { user: ["ban"] } }, status: 401 },
];

/** The same routes called by a signed-in user without any permission: 403 on both. */
const forbidden = (): WireCase[] =>
  cases()
    .filter((c) => c.as === "root" && c.status === 200 && !c.path.includes("has-permission"))
    .filter((c, i, all) => all.findIndex((d) => d.path.split("?")[0] === c.path.split("?")[0]) === i)
    .flatMap((c) => [
      { ...c, name: `${c.name}, without permission`, as: "plain" as const, status: 403 },
      { ...c, name: `${c.name}, no session`, as: "none" as const, status: 401 },
    ]);

describe("admin: wire diff of every route (same rows, same answers)", () => {
  beforeAll(async () => {
    pair = await createAdminPair();
    root = await signUp(pair, pair.reference, "root@example.com", "admin");
    plain = await signUp(pair, pair.reference, "plain@example.com");
    target = await signUp(pair, pair.reference, "target@example.com");
    other = await signUp(pair, pair.reference, "other@example.com", "admin");
  });
  afterAll(() => pair.close());

  const all = () => [...cases(), ...forbidden()];
  // The list is built once the users exist; the titles come from a dry build with placeholders.
  const titles = (() => {
    const u = { id: "", email: "", cookie: "", token: "" };
    [root, plain, target, other] = [u, u, u, u];
    return all().map((c) => c.name);
  })();

  it.each(titles)("%s", async (title) => {
    const c = all().find((x) => x.name === title)!;
    const cookie = c.as === "root" ? root.cookie : c.as === "plain" ? plain.cookie : "";
    const got = await sendBoth(pair, adminRequest(c.method, c.path, cookie, c.body));
    expect(got.reference.status, JSON.stringify(got.reference.body)).toBe(c.status);
    expect(normalizeCaptured(got.latchkey, got.known)).toEqual(normalizeCaptured(got.reference, got.known));
    expect(got.writes.latchkey).toEqual(got.writes.reference);
  });
});

describe("admin: a reference config with custom roles and options, ported by changing imports", () => {
  let ported: Pair;
  let boss: PairUser;
  let support: PairUser;
  let member: PairUser;
  beforeAll(async () => {
    const { createAccessControl: referenceAc } = await import("better-auth/plugins/access");
    const referenceDefaults = await import("better-auth/plugins/admin/access");
    const { createAccessControl } = await import("@latchkey/access");
    const ours = await import("@latchkey/admin/access");
    const rolesOf = (make: typeof createAccessControl, defaults: typeof ours) => {
      const ac = make({ ...defaults.defaultStatements, project: ["create"] });
      return { ac, roles: { admin: defaults.adminAc, user: defaults.userAc, support: ac.newRole({ user: ["list", "get"], project: ["create"] }) } };
    };
    const shared = { defaultBanExpiresIn: 120, impersonationSessionDuration: 600, bannedUserMessage: "Go away" };
    const { admin: referenceAdmin } = await import("better-auth/plugins");
    const { admin } = await import("@latchkey/admin");
    const { createPair } = await import("./support/instances.ts");
    ported = await createPair({
      reference: { plugins: [referenceAdmin({ ...shared, ...rolesOf(referenceAc as never, referenceDefaults as never) })] },
      latchkey: { plugins: [admin({ ...shared, ...rolesOf(createAccessControl, ours) })] },
    });
    boss = await signUp(ported, ported.reference, "boss@example.com", "admin");
    support = await signUp(ported, ported.reference, "support@example.com", "support");
    member = await signUp(ported, ported.reference, "member@example.com");
  });
  afterAll(() => ported.close());

  const portedCases = (): [string, "GET" | "POST", string, () => string, () => unknown][] => [
    ["support lists users", "GET", "/admin/list-users?sortBy=email", () => support.cookie, () => undefined],
    ["support may not ban", "POST", "/admin/ban-user", () => support.cookie, () => ({ userId: member.id })],
    ["support checks its permissions", "POST", "/admin/has-permission", () => support.cookie, () => ({ permissions: { project: ["create"], user: ["get"] } })],
    ["a custom role is set", "POST", "/admin/set-role", () => boss.cookie, () => ({ userId: member.id, role: ["support", "user"] })],
    ["an unknown role is refused", "POST", "/admin/set-role", () => boss.cookie, () => ({ userId: member.id, role: "superuser" })],
    ["create-user with an unknown role", "POST", "/admin/create-user", () => boss.cookie, () => ({ email: "u@example.com", name: "u", role: "superuser" })],
    ["ban with the default length", "POST", "/admin/ban-user", () => boss.cookie, () => ({ userId: member.id })],
  ];

  it.each(portedCases().map((c) => c[0]))("%s", async (title) => {
    const [, method, path, cookie, body] = portedCases().find((c) => c[0] === title)!;
    const got = await sendBoth(ported, adminRequest(method, path, cookie(), body()));
    expect(normalizeCaptured(got.latchkey, got.known)).toEqual(normalizeCaptured(got.reference, got.known));
  });

  it("the default ban length and the impersonation duration are the same seconds on both; the custom message is sent by both", async () => {
    for (const handler of [ported.reference, ported.latchkey]) {
      const target = await signUp(ported, ported.reference, `ported-${Math.random().toString(36).slice(2)}@example.com`);
      const start = Date.now();
      const banned = await handler(adminRequest("POST", "/admin/ban-user", boss.cookie, { userId: target.id }));
      const ends = new Date(((await banned.json()) as { user: { banExpires: string } }).user.banExpires).getTime();
      expect(ends - start).toBeGreaterThanOrEqual(119_000);
      expect(ends - Date.now()).toBeLessThanOrEqual(120_000);
      const refused = await handler(adminRequest("POST", "/sign-in/email", "", { email: target.email, password: "password-1234" }));
      expect(await refused.json()).toEqual({ code: "BANNED_USER", message: "Go away" });
      await handler(adminRequest("POST", "/admin/unban-user", boss.cookie, { userId: target.id }));
      const imp = await handler(adminRequest("POST", "/admin/impersonate-user", boss.cookie, { userId: target.id }));
      const impEnds = new Date(((await imp.json()) as { session: { expiresAt: string } }).session.expiresAt).getTime();
      expect(impEnds - start).toBeGreaterThanOrEqual(599_000);
      expect(impEnds - Date.now()).toBeLessThanOrEqual(600_000);
    }
  });
});
