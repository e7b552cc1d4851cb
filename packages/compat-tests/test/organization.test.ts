import { createAuthClient } from "better-auth/client";
import { organizationClient as referenceOrganizationClient } from "better-auth/client/plugins";
import { organization as referenceOrganization } from "better-auth/plugins";
import { createAccessControl as referenceAccessControl } from "better-auth/plugins/access";
import { defaultStatements as referenceStatements } from "better-auth/plugins/organization/access";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccessControl } from "@latchkey/access";
import { membershipKey, organization } from "@latchkey/organization";
import { defaultStatements } from "@latchkey/organization/access";
import { jarFetch } from "./support/client-fetch.ts";
import { CookieJar } from "./support/cookies.ts";
import { BASE_PATH, createPair, url, type Handler, type Pair } from "./support/instances.ts";
import { listen } from "./support/server.ts";

/**
 * `@latchkey/organization` beside the reference's `organization()` (better-auth/plugins) on one
 * SQLite file: teams and dynamic access control on, each side with the same statements. Rows
 * written by one side are used by the other, scripted requests get the same answers, and the
 * reference's `organizationClient()` drives Latchkey over real HTTP. Rows 68-70 of
 * DIVERGENCES.md are asserted at the end.
 */
const PASSWORD = "password-1234";
const referenceOptions = () =>
  referenceOrganization({ teams: { enabled: true }, dynamicAccessControl: { enabled: true }, ac: referenceAccessControl(referenceStatements) });
const latchkeyOptions = () =>
  organization({ teams: { enabled: true }, dynamicAccessControl: { enabled: true }, ac: createAccessControl(defaultStatements) });
const orgPair = (baseURL?: string): Promise<Pair> =>
  createPair({ ...(baseURL ? { baseURL } : {}), reference: { plugins: [referenceOptions()] }, latchkey: { plugins: [latchkeyOptions()] } });

/** Rows of a query on the shared database file (the test's own connection). */
const query = <T>(pair: Pair, sql: string, ...params: unknown[]): T[] => pair.db.prepare(sql).all(params) as T[];

/** Latchkey's server-only `auth.api.addMember`. */
const addMember = (pair: Pair, body: Record<string, unknown>): Promise<{ id: string }> =>
  (pair.latchkeyAuth.api as unknown as Record<string, (args: unknown) => Promise<{ id: string }>>).addMember!({ body });

interface Answer {
  status: number;
  json: unknown;
}

/** A browser: one cookie jar in front of one handler (which can be swapped for the other side's). */
class Browser {
  readonly jar = new CookieJar();
  constructor(public handler: Handler) {}

  async send<T = Record<string, unknown>>(path: string, body?: unknown): Promise<Answer & { json: T }> {
    const headers: Record<string, string> = { cookie: this.jar.header() };
    const request =
      body === undefined
        ? new Request(url(path), { method: "GET", headers })
        : new Request(url(path), { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
    const response = await this.handler(request);
    this.jar.store(response);
    const text = await response.text();
    return { status: response.status, json: (text ? JSON.parse(text) : null) as T };
  }

  async signUp(email: string): Promise<string> {
    const answer = await this.send<{ user: { id: string } }>("/sign-up/email", { email, password: PASSWORD, name: email });
    return answer.json.user.id;
  }
}

describe("organization: rows written by one side are used by the other", () => {
  let pair: Pair;
  beforeAll(async () => {
    pair = await orgPair();
  });
  afterAll(() => pair.close());

  it("Latchkey's schema check finds the reference's tables complete", async () => {
    expect(await pair.latchkeyAuth.$context.adapter.findSchemaProblems?.()).toEqual([]);
  });

  it("an organization made on the reference is read, invited to and joined through Latchkey, and the other way round", async () => {
    const owner = new Browser(pair.reference);
    await owner.signUp("owner@example.com");
    const created = await owner.send<{ id: string }>("/organization/create", { name: "Ref Org", slug: "ref-org", metadata: { tier: 1 } });
    expect(created.status).toBe(200);
    const orgId = created.json.id;

    owner.handler = pair.latchkey;
    const full = await owner.send<Record<string, unknown>>("/organization/get-full-organization");
    expect(full.json).toMatchObject({ id: orgId, slug: "ref-org", metadata: '{"tier":1}', members: [{ role: "owner" }] });
    expect((await owner.send("/organization/has-permission", { permissions: { organization: ["delete"] } })).json).toEqual({ error: null, success: true });
    const invited = await owner.send<{ id: string }>("/organization/invite-member", { email: "joiner@example.com", role: "admin" });
    expect(invited.status).toBe(200);

    const joiner = new Browser(pair.latchkey);
    const joinerId = await joiner.signUp("joiner@example.com");
    joiner.handler = pair.reference;
    const accepted = await joiner.send("/organization/accept-invitation", { invitationId: invited.json.id });
    expect(accepted.status).toBe(200);
    joiner.handler = pair.latchkey;
    expect((await joiner.send("/organization/get-active-member")).json).toMatchObject({ userId: joinerId, role: "admin", organizationId: orgId });

    // An invitation Latchkey writes is accepted on the reference and the other way round.
    const second = new Browser(pair.reference);
    await second.signUp("second@example.com");
    owner.handler = pair.reference;
    const refInvite = await owner.send<{ id: string }>("/organization/invite-member", { email: "second@example.com", role: "member" });
    second.handler = pair.latchkey;
    expect((await second.send("/organization/accept-invitation", { invitationId: refInvite.json.id })).status).toBe(200);
    owner.handler = pair.latchkey;
    const members = await owner.send<{ total: number }>("/organization/list-members");
    expect(members.json.total).toBe(3);
  });

  it("team memberships carry the same membershipKey and memberCount whoever writes them", async () => {
    const owner = new Browser(pair.latchkey);
    await owner.signUp("team-owner@example.com");
    const orgId = (await owner.send<{ id: string }>("/organization/create", { name: "Teams", slug: "teams-org" })).json.id;
    const a = new Browser(pair.reference);
    const aId = await a.signUp("team-a@example.com");
    const b = new Browser(pair.reference);
    const bId = await b.signUp("team-b@example.com");
    for (const userId of [aId, bId]) await addMember(pair, { organizationId: orgId, userId, role: "member" });
    const team = await owner.send<{ id: string }>("/organization/create-team", { name: "Blue" });
    expect(team.json).not.toHaveProperty("memberCount");
    owner.handler = pair.reference;
    expect((await owner.send("/organization/add-team-member", { teamId: team.json.id, userId: aId })).status).toBe(200);
    owner.handler = pair.latchkey;
    expect((await owner.send("/organization/add-team-member", { teamId: team.json.id, userId: bId })).status).toBe(200);
    const rows = query<{ userId: string; membershipKey: string }>(pair, `select "userId", "membershipKey" from "teamMember" where "teamId" = ?`, team.json.id);
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row.membershipKey).toBe(await membershipKey(team.json.id, row.userId));
    const [counted] = query<{ memberCount: number }>(pair, `select "memberCount" from team where id = ?`, team.json.id);
    expect(counted!.memberCount).toBe(2);
    // The reference sees Latchkey's row as a membership (its own add answers the existing row).
    owner.handler = pair.reference;
    const again = await owner.send<{ userId: string }>("/organization/add-team-member", { teamId: team.json.id, userId: bId });
    expect(again.json.userId).toBe(bId);
    owner.handler = pair.latchkey;
    const listed = await owner.send<{ userId: string }[]>(`/organization/list-team-members?teamId=${team.json.id}`);
    expect(listed.status).toBe(400); // the owner is in the default team, not Blue (reference rule)
    a.handler = pair.latchkey;
    await a.send("/organization/set-active", { organizationId: orgId });
    const seen = await a.send<{ userId: string }[]>(`/organization/list-team-members?teamId=${team.json.id}`);
    expect(seen.json.map((m) => m.userId).sort()).toEqual([aId, bId].sort());
    expect(seen.json[0]).not.toHaveProperty("membershipKey");
  });

  it("dynamic roles: the reference's stored permission JSON grants on Latchkey, and Latchkey's roles are listed by the reference", async () => {
    const owner = new Browser(pair.reference);
    await owner.signUp("roles-owner@example.com");
    const orgId = (await owner.send<{ id: string }>("/organization/create", { name: "Roles", slug: "roles-org" })).json.id;
    const created = await owner.send("/organization/create-role", { role: "Auditor", permission: { member: ["update"], invitation: ["create"] } });
    expect(created.status).toBe(200);
    const stored = query(pair, `select role, permission from "organizationRole" where "organizationId" = ?`, orgId);
    expect(stored).toEqual([{ role: "auditor", permission: '{"member":["update"],"invitation":["create"]}' }]);

    const worker = new Browser(pair.latchkey);
    const workerId = await worker.signUp("roles-worker@example.com");
    const member = await addMember(pair, { organizationId: orgId, userId: workerId, role: "member" });
    owner.handler = pair.latchkey;
    const assigned = await owner.send("/organization/update-member-role", { memberId: member.id, role: "auditor" });
    expect(assigned.json).toMatchObject({ role: "auditor" });
    await worker.send("/organization/set-active", { organizationId: orgId });
    expect((await worker.send("/organization/has-permission", { permissions: { member: ["update"] } })).json).toEqual({ error: null, success: true });
    expect((await worker.send("/organization/has-permission", { permissions: { member: ["delete"] } })).json).toEqual({ error: null, success: false });

    const made = await owner.send<{ roleData: { id: string } }>("/organization/create-role", { role: "viewer", permission: { team: ["update"] } });
    expect(made.status).toBe(200);
    owner.handler = pair.reference;
    const listed = await owner.send<{ role: string; permission: unknown }[]>("/organization/list-roles");
    expect(listed.json.map((r) => [r.role, r.permission])).toEqual([
      ["auditor", { member: ["update"], invitation: ["create"] }],
      ["viewer", { team: ["update"] }],
    ]);
    const both = await Promise.all(
      [pair.reference, pair.latchkey].map(async (side) => {
        owner.handler = side;
        return owner.send("/organization/delete-role", { roleName: "auditor" });
      }),
    );
    expect(both.map((x) => x.json)).toEqual([
      { code: "ROLE_IS_ASSIGNED_TO_MEMBERS", message: "Cannot delete a role that is assigned to members. Please reassign the members to a different role first" },
      { code: "ROLE_IS_ASSIGNED_TO_MEMBERS", message: "Cannot delete a role that is assigned to members. Please reassign the members to a different role first" },
    ]);
  });
});

/** Replaces what differs by construction (ids, dates, tokens) with stable marks. */
function normalize(value: unknown): unknown {
  return JSON.parse(
    JSON.stringify(value, (key, v: unknown) => {
      if (/^(id|userId|organizationId|teamId|inviterId|activeOrganizationId|activeTeamId)$/.test(key) && typeof v === "string") return "<id>";
      if (/At$/.test(key) && typeof v === "string") return "<date>";
      if (key === "token") return "<token>";
      return v;
    }),
  );
}

/** One scripted run against one side on a fresh database: every answer in order. */
async function script(side: "reference" | "latchkey"): Promise<unknown[]> {
  const pair = await orgPair();
  try {
    const out: unknown[] = [];
    const owner = new Browser(pair[side]);
    const member = new Browser(pair[side]);
    const stranger = new Browser(pair[side]);
    await owner.signUp("s-owner@example.com");
    const memberId = await member.signUp("s-member@example.com");
    await stranger.signUp("s-stranger@example.com");
    const log = async (b: Browser, path: string, body?: unknown) => {
      const a = await b.send(path, body);
      out.push({ path: path.replace(/(id|Id)=[^&]+/, "$1=<id>"), status: a.status, json: normalize(a.json) });
      return a;
    };
    const created = await log(owner, "/organization/create", { name: "Script", slug: "script", logo: "https://x.test/l.png", metadata: { k: "v" } });
    const orgId = (created.json as { id: string }).id;
    await log(owner, "/organization/create", { name: "Again", slug: "script" });
    await log(owner, "/organization/check-slug", { slug: "script" });
    await log(owner, "/organization/check-slug", { slug: "free" });
    await log(owner, "/organization/update", { data: { name: "Script 2" } });
    await log(owner, "/organization/update", { data: { slug: "script" }, organizationId: "nope" });
    await log(owner, "/organization/list");
    await log(owner, "/organization/get-organization");
    await log(stranger, "/organization/set-active", { organizationId: orgId });
    await log(stranger, "/organization/get-full-organization");
    await log(stranger, "/organization/get-active-member");
    const invite = await log(owner, "/organization/invite-member", { email: "S-Member@example.com", role: "admin" });
    await log(owner, "/organization/invite-member", { email: "s-member@example.com", role: "admin" });
    await log(owner, "/organization/invite-member", { email: "not-an-email", role: "admin" });
    await log(owner, "/organization/invite-member", { email: "x@example.com", role: "wizard" });
    await log(owner, "/organization/list-invitations");
    const invitationId = (invite.json as { id: string }).id;
    await log(member, `/organization/get-invitation?id=${invitationId}`);
    await log(stranger, "/organization/accept-invitation", { invitationId });
    await log(stranger, "/organization/reject-invitation", { invitationId: "nope" });
    await log(member, "/organization/accept-invitation", { invitationId });
    await log(member, "/organization/accept-invitation", { invitationId });
    await log(member, "/organization/get-active-member");
    await log(member, "/organization/get-active-member-role");
    await log(owner, "/organization/list-members?sortBy=createdAt&sortDirection=asc");
    await log(member, "/organization/has-permission", { permissions: { organization: ["delete"] } });
    await log(member, "/organization/has-permission", { permissions: { member: ["update"] } });
    await log(stranger, "/organization/has-permission", { permissions: { member: ["update"] }, organizationId: orgId });
    await log(owner, "/organization/leave", { organizationId: orgId });
    const members = query<{ id: string; userId: string }>(pair, `select id, "userId" from member where "organizationId" = ?`, orgId);
    const ownerMember = members.find((m) => m.userId !== memberId)!;
    const memberMember = members.find((m) => m.userId === memberId)!;
    await log(member, "/organization/update-member-role", { memberId: ownerMember.id, role: "member" });
    await log(owner, "/organization/update-member-role", { memberId: ownerMember.id, role: "admin" });
    await log(owner, "/organization/update-member-role", { memberId: memberMember.id, role: "nope" });
    await log(owner, "/organization/update-member-role", { memberId: memberMember.id, role: ["member", "admin"] });
    const red = await log(owner, "/organization/create-team", { name: "Red" });
    const redId = (red.json as { id: string }).id;
    await log(owner, "/organization/list-teams");
    await log(owner, "/organization/update-team", { teamId: redId, data: { name: "Red 2" } });
    await log(owner, "/organization/update-team", { teamId: "nope", data: { name: "X" } });
    await log(owner, "/organization/update-team", { teamId: redId, data: {} });
    await log(member, "/organization/set-active-team", { teamId: redId });
    await log(owner, "/organization/add-team-member", { teamId: redId, userId: memberId });
    await log(owner, "/organization/add-team-member", { teamId: "nope", userId: memberId });
    await log(member, "/organization/set-active-team", { teamId: redId });
    await log(member, "/organization/list-team-members");
    await log(member, "/organization/list-user-teams");
    await log(owner, `/organization/list-user-teams?userId=${memberId}`);
    await log(stranger, "/organization/list-team-members?teamId=" + redId);
    await log(owner, "/organization/invite-member", { email: "t@example.com", role: "member", teamId: "nope" });
    await log(owner, "/organization/invite-member", { email: "t@example.com", role: "member", teamId: "a,b" });
    await log(owner, "/organization/remove-team-member", { teamId: redId, userId: memberId });
    await log(owner, "/organization/remove-team-member", { teamId: redId, userId: memberId });
    await log(owner, "/organization/set-active-team", { teamId: "nope" });
    await log(member, "/organization/set-active-team", { teamId: null });
    await log(owner, "/organization/remove-team", { teamId: redId });
    await log(owner, "/organization/remove-team", { teamId: redId });
    await log(owner, "/organization/create-role", { role: "owner", permission: { member: ["update"] } });
    await log(owner, "/organization/create-role", { role: "qa", permission: { nothing: ["x"] } });
    await log(owner, "/organization/create-role", { role: "qa", permission: { member: ["update"] } });
    await log(owner, "/organization/get-role?roleName=qa");
    await log(owner, "/organization/delete-role", { roleName: "owner" });
    await log(owner, "/organization/delete-role", { roleName: "qa" });
    await log(owner, "/organization/remove-member", { memberIdOrEmail: "nobody@example.com" });
    await log(owner, "/organization/remove-member", { memberIdOrEmail: "s-member@example.com" });
    await log(owner, "/organization/delete", { organizationId: "nope" });
    await log(owner, "/organization/delete", { organizationId: orgId });
    await log(owner, "/organization/list");
    return out;
  } finally {
    pair.close();
  }
}

describe("organization: the same scripted requests get the same answers", () => {
  it("statuses and bodies match request for request (ids and dates masked)", async () => {
    const [reference, latchkey] = [await script("reference"), await script("latchkey")];
    expect(latchkey).toHaveLength(reference.length);
    for (let i = 0; i < reference.length; i++) expect(latchkey[i], JSON.stringify(reference[i])).toEqual(reference[i]);
  });
});

describe("organization: the reference's organizationClient() over real HTTP", () => {
  async function clientFlow(side: "reference" | "latchkey"): Promise<unknown> {
    const server = await listen();
    const pair = await orgPair(server.origin);
    server.use(pair[side]);
    try {
      const owner = jarFetch();
      const ownerClient = createAuthClient({
        baseURL: `${server.origin}${BASE_PATH}`,
        fetchOptions: { customFetchImpl: owner.fetch },
        plugins: [referenceOrganizationClient({ teams: { enabled: true } })],
      });
      const invitee = jarFetch();
      const inviteeClient = createAuthClient({
        baseURL: `${server.origin}${BASE_PATH}`,
        fetchOptions: { customFetchImpl: invitee.fetch },
        plugins: [referenceOrganizationClient({ teams: { enabled: true } })],
      });
      await ownerClient.signUp.email({ email: "c-owner@example.com", password: PASSWORD, name: "O" });
      await inviteeClient.signUp.email({ email: "c-invitee@example.com", password: PASSWORD, name: "I" });
      const results: unknown[] = [];
      const created = await ownerClient.organization.create({ name: "Client", slug: "client" });
      results.push(created);
      results.push(await ownerClient.organization.checkSlug({ slug: "client" }));
      const invitation = await ownerClient.organization.inviteMember({ email: "c-invitee@example.com", role: "member" });
      results.push(invitation);
      results.push(await inviteeClient.organization.getInvitation({ query: { id: invitation.data!.id } }));
      results.push(await inviteeClient.organization.acceptInvitation({ invitationId: invitation.data!.id }));
      results.push(await inviteeClient.organization.setActive({ organizationId: created.data!.id }));
      results.push(await ownerClient.organization.listMembers({ query: { limit: 10 } }));
      results.push(await inviteeClient.organization.hasPermission({ permissions: { member: ["delete"] } }));
      results.push(await ownerClient.organization.hasPermission({ permissions: { member: ["delete"] } }));
      results.push(await inviteeClient.organization.getActiveMember());
      results.push(await ownerClient.organization.getFullOrganization());
      results.push(await ownerClient.organization.list());
      results.push(await ownerClient.organization.listTeams());
      results.push(await inviteeClient.organization.leave({ organizationId: created.data!.id }));
      results.push({ calls: [...owner.calls, ...invitee.calls] });
      return normalize(results);
    } finally {
      pair.close();
      await server.close();
    }
  }

  it("the same { data, error } from both servers (the reference's team memberCount aside: row 71)", async () => {
    const reference = await clientFlow("reference");
    const latchkey = await clientFlow("latchkey");
    expect(JSON.stringify(reference)).toContain('"memberCount":1');
    expect(JSON.stringify(latchkey)).not.toContain("memberCount");
    expect(latchkey).toEqual(JSON.parse(JSON.stringify(reference, (key, v: unknown) => (key === "memberCount" ? undefined : v))));
  });
});

describe("organization: divergence row 72 (dynamic access control without an ac)", () => {
  it("row 72: the reference starts and answers 501 MISSING_AC_INSTANCE on create-role; Latchkey's organization() throws a TypeError", async () => {
    const pair = await createPair({
      reference: { plugins: [referenceOrganization({ dynamicAccessControl: { enabled: true } })] },
      latchkey: { plugins: [organization()] },
    });
    try {
      const owner = new Browser(pair.reference);
      await owner.signUp("dac@example.com");
      await owner.send("/organization/create", { name: "Dac", slug: "dac" });
      const answer = await owner.send("/organization/create-role", { role: "x", permission: { member: ["update"] } });
      expect(answer.status).toBe(501);
      expect(answer.json).toMatchObject({ code: "MISSING_AC_INSTANCE" });
    } finally {
      pair.close();
    }
    expect(() => organization({ dynamicAccessControl: { enabled: true } })).toThrow(TypeError);
  });
});

describe("organization: divergences (DIVERGENCES.md rows 68-71)", () => {
  let pair: Pair;
  let owner: Browser;
  beforeAll(async () => {
    pair = await orgPair();
    owner = new Browser(pair.reference);
    await owner.signUp("d-owner@example.com");
    await owner.send("/organization/create", { name: "Div", slug: "div" });
  });
  afterAll(() => pair.close());

  it("row 68: POST /organization/update with { data: {} } — the reference answers 500, Latchkey 400 VALIDATION_ERROR", async () => {
    owner.handler = pair.reference;
    expect((await owner.send("/organization/update", { data: {} })).status).toBe(500);
    owner.handler = pair.latchkey;
    const answer = await owner.send("/organization/update", { data: {} });
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ code: "VALIDATION_ERROR" });
  });

  it("row 69: remove-member by a member without member:delete — the reference answers 401, Latchkey 403 (same body)", async () => {
    owner.handler = pair.reference;
    const orgId = (await owner.send<{ id: string }>("/organization/get-full-organization")).json.id;
    const a = new Browser(pair.reference);
    const aId = await a.signUp("d-a@example.com");
    const b = new Browser(pair.reference);
    const bId = await b.signUp("d-b@example.com");
    for (const userId of [aId, bId]) await addMember(pair, { organizationId: orgId, userId, role: "member" });
    await a.send("/organization/set-active", { organizationId: orgId });
    const body = { code: "YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER", message: "You are not allowed to delete this member" };
    const reference = await a.send("/organization/remove-member", { memberIdOrEmail: "d-b@example.com" });
    expect(reference).toEqual({ status: 401, json: body });
    a.handler = pair.latchkey;
    const latchkey = await a.send("/organization/remove-member", { memberIdOrEmail: "d-b@example.com" });
    expect(latchkey).toEqual({ status: 403, json: body });
  });

  it("row 71: get-full-organization's teams — the reference answers the internal memberCount, Latchkey never does", async () => {
    owner.handler = pair.reference;
    const reference = await owner.send<{ teams: Record<string, unknown>[] }>("/organization/get-full-organization");
    expect(reference.json.teams[0]).toHaveProperty("memberCount", 1);
    owner.handler = pair.latchkey;
    const latchkey = await owner.send<{ teams: Record<string, unknown>[] }>("/organization/get-full-organization");
    expect(latchkey.json.teams[0]).not.toHaveProperty("memberCount");
    expect(latchkey.json.teams[0]).toEqual(Object.fromEntries(Object.entries(reference.json.teams[0]!).filter(([k]) => k !== "memberCount")));
  });

  it("row 70: a slug longer than 191 characters — the reference stores it (SQLite), Latchkey answers 400 VALIDATION_ERROR", async () => {
    const slug = "s".repeat(192);
    owner.handler = pair.reference;
    expect((await owner.send("/organization/create", { name: "Long", slug })).status).toBe(200);
    owner.handler = pair.latchkey;
    const answer = await owner.send("/organization/create", { name: "Long 2", slug: `${slug}x` });
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ code: "VALIDATION_ERROR" });
  });
});
