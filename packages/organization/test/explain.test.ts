import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type pg from "pg";
import type { TestAuth } from "@latchkey/test-support";
import { fastUser, type FastUser } from "./fast-users.ts";
import { createOrg, orgInstance } from "./instance.ts";

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  Plans?: PlanNode[];
}

/** Every node of a JSON plan. */
const nodes = (plan: PlanNode): PlanNode[] => [plan, ...(plan.Plans ?? []).flatMap(nodes)];

/**
 * The statements the routes send, read off the pool while they run: the plans below are those
 * of the real queries, with their real parameters.
 */
function record(pool: pg.Pool): { statements: { text: string; values: unknown[] }[]; stop(): void } {
  const statements: { text: string; values: unknown[] }[] = [];
  const original = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  (pool as unknown as { query: unknown }).query = (...args: unknown[]) => {
    const [first, second] = args;
    if (typeof first === "string") statements.push({ text: first, values: (second as unknown[]) ?? [] });
    else if (first && typeof first === "object" && "text" in first) {
      const q = first as { text: string; values?: unknown[] };
      statements.push({ text: q.text, values: q.values ?? [] });
    }
    return original(...args);
  };
  return { statements, stop: () => ((pool as unknown as { query: unknown }).query = original) };
}

describe("organization reads use indexes (PostgreSQL EXPLAIN)", () => {
  let t: TestAuth;
  let pool: pg.Pool;
  let owner: FastUser;
  let orgId: string;
  beforeAll(async () => {
    t = await orgInstance("postgres");
    pool = t.database.driver as pg.Pool;
    owner = await fastUser(t, "explain-owner");
    orgId = await createOrg(owner.browser, "explain-target");
    await t.auth.$context.adapter.update({ model: "user", where: [{ field: "id", value: owner.userId }], update: { emailVerified: true } });
    // 2,000 users in 60 organizations each (120,000 member rows, 2,000 of them in the target),
    // and 60,000 invitations, then fresh statistics: a planner that could scan would.
    await pool.query(`insert into "user" (id, name, email, "emailVerified", "createdAt", "updatedAt")
      select 'u' || g, 'User ' || g, 'u' || g || '@example.com', true, now(), now() from generate_series(1, 2000) g`);
    await pool.query(`insert into organization (id, name, slug, "createdAt")
      select 'o' || g, 'Org ' || g, 'org-' || g, now() from generate_series(1, 59) g`);
    await pool.query(`insert into member (id, "organizationId", "userId", role, "createdAt")
      select 'm' || o || '-' || u, case when o = 0 then $1 else 'o' || o end, 'u' || u, 'member', now()
      from generate_series(0, 59) o, generate_series(1, 2000) u`, [orgId]);
    await pool.query(`insert into member (id, "organizationId", "userId", role, "createdAt")
      select 'mo' || o, 'o' || o, $1, 'member', now() from generate_series(1, 59) o`, [owner.userId]);
    await pool.query(`insert into invitation (id, "organizationId", email, role, status, "expiresAt", "createdAt", "inviterId")
      select 'i' || g, 'o' || (1 + g % 59), 'invitee' || g || '@example.com', 'member', 'pending', now() + interval '1 day', now(), 'u1'
      from generate_series(1, 60000) g`);
    await pool.query("analyze");
  }, 120_000);
  afterAll(() => t.close());

  it("has-permission, get-active-member, a page of list-members and list-user-invitations scan neither member nor invitation", async () => {
    const recorder = record(pool);
    try {
      expect((await owner.browser.post("/organization/has-permission", { permissions: { member: ["delete"] } })).json).toEqual({
        error: null,
        success: true,
      });
      expect((await owner.browser.get("/organization/get-active-member")).status).toBe(200);
      const page = await owner.browser.get<{ members: unknown[]; total: number }>("/organization/list-members?limit=20&offset=40");
      expect(page.json!.members).toHaveLength(20);
      expect(page.json!.total).toBe(2001);
      expect((await owner.browser.get("/organization/list-user-invitations")).status).toBe(200);
    } finally {
      recorder.stop();
    }
    const touched = recorder.statements.filter((s) => /"(member|invitation)"/.test(s.text));
    expect(touched.length).toBeGreaterThanOrEqual(5);
    for (const statement of touched) {
      const result = await pool.query<{ "QUERY PLAN": { Plan: PlanNode }[] }>(`explain (format json) ${statement.text}`, statement.values);
      const plan = result.rows[0]!["QUERY PLAN"][0]!.Plan;
      const scans = nodes(plan).filter((n) => n["Node Type"] === "Seq Scan").map((n) => n["Relation Name"]);
      expect(scans, statement.text).not.toContain("member");
      expect(scans, statement.text).not.toContain("invitation");
    }
  });
});
