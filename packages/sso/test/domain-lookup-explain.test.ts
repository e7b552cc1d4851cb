import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, type TestAuth, type TestIdP } from "@latchkey/test-support";
import { coveringDomains } from "../src/domain-lookup.ts";
import { AUTH, registration, signedIn, ssoInstance, startSSOIdP } from "./instance.ts";
import { recordQueries } from "./query-recorder.ts";

/** The part of a node-postgres pool these tests use (the test database's driver). */
interface Pool {
  query<R = unknown>(text: string, values?: unknown[]): Promise<{ rows: R[] }>;
}

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  Plans?: PlanNode[];
}
const nodes = (plan: PlanNode): PlanNode[] => [plan, ...(plan.Plans ?? []).flatMap(nodes)];

let idp: TestIdP;
let t: TestAuth;
let pool: Pool;
beforeAll(async () => {
  idp = await startSSOIdP(["target", "listed"]);
  t = await ssoInstance("postgres", idp);
  pool = t.database.driver as Pool;
  const owner = await signedIn(t, "explain");
  expect(
    (await owner.post("/sso/register", { ...registration(idp, "target"), domain: "target.example" })).status,
  ).toBe(200);
  expect(
    (
      await owner.post("/sso/register", {
        ...registration(idp, "listed"),
        domain: "one.example, two.example",
      })
    ).status,
  ).toBe(200);
  const { userId } = (await t.auth.$context.adapter.findOne<{ userId: string }>({
    model: "ssoProvider",
    where: [{ field: "providerId", value: "target" }],
  }))!;
  // 1,000 more providers, each with its own domain, then fresh statistics: a planner that could scan would.
  await pool.query(
    `insert into "ssoProvider" (id, issuer, "oidcConfig", "userId", "providerId", domain)
     select 'p' || g, $1, '{}', $2, 'provider-' || g, 'company-' || g || '.example' from generate_series(1, 1000) g`,
    [idp.issuer, userId],
  );
  await pool.query('analyze "ssoProvider"');
}, 60_000);
afterAll(async () => {
  await t.close();
  await idp.close();
});

async function signInStatements(body: Record<string, unknown>) {
  let status = 0;
  let url = "";
  const statements = await recordQueries(pool, () => true, async () => {
    const res = await new Browser("http://localhost:3000", t.auth.handler).post(`${AUTH}/sign-in/sso`, {
      callbackURL: "/d",
      ...body,
    });
    status = res.status;
    url = ((await res.json()) as { url?: string }).url ?? "";
  });
  return { status, url, statements: statements.filter((s) => s.text.includes('"ssoProvider"')) };
}

async function seqScans(statement: { text: string; values: unknown[] }): Promise<(string | undefined)[]> {
  const result = await pool.query<{ "QUERY PLAN": { Plan: PlanNode }[] }>(
    `explain (format json) ${statement.text}`,
    statement.values,
  );
  return nodes(result.rows[0]!["QUERY PLAN"][0]!.Plan)
    .filter((n) => n["Node Type"] === "Seq Scan")
    .map((n) => n["Relation Name"]);
}

async function indexesUsed(statement: { text: string; values: unknown[] }): Promise<(string | undefined)[]> {
  const result = await pool.query<{ "QUERY PLAN": { Plan: PlanNode }[] }>(
    `explain (format json) ${statement.text}`,
    statement.values,
  );
  return nodes(result.rows[0]!["QUERY PLAN"][0]!.Plan).map((n) => n["Index Name"]);
}

describe("sign-in by email domain among 1,000 providers (PostgreSQL EXPLAIN)", () => {
  it("the domains that cover an email's domain, most specific first", () => {
    expect(coveringDomains("Sub.Target.example")).toEqual([
      "sub.target.example",
      "target.example",
      "example",
    ]);
  });

  it.each([
    ["the exact domain", "ann@target.example"],
    ["a subdomain (parent domains looked up with IN)", "ann@eu.sales.target.example"],
  ])("%s: found without a sequential scan of ssoProvider", async (_label, email) => {
    const { status, url, statements } = await signInStatements({ email });
    expect(status).toBe(200);
    expect(new URL(url).searchParams.get("redirect_uri")).toBe(`${AUTH}/sso/callback/target`);
    expect(statements.length).toBeGreaterThanOrEqual(1);
    for (const statement of statements)
      expect(await seqScans(statement), statement.text).not.toContain("ssoProvider");
  });

  it.each([
    ["first", "ann@one.example"],
    ["last, as a parent domain", "bo@mail.two.example"],
  ])(
    "a domain of a comma-separated list (%s) is found on the list rows' partial index, without a sequential scan",
    async (_label, email) => {
      const { status, url, statements } = await signInStatements({ email });
      expect(status).toBe(200);
      expect(new URL(url).searchParams.get("redirect_uri")).toBe(`${AUTH}/sso/callback/listed`);
      const lists = statements.filter((s) => /\blike\b/i.test(s.text));
      expect(lists).toHaveLength(1);
      for (const statement of statements)
        expect(await seqScans(statement), statement.text).not.toContain("ssoProvider");
      expect(await indexesUsed(lists[0]!)).toContain("ssoProvider_domain_list_idx");
    },
  );

  it("an email no provider covers reads no more than the list rows either", async () => {
    const { status, statements } = await signInStatements({ email: "eve@nobody.example" });
    expect(status).toBe(404);
    expect(statements.length).toBeGreaterThanOrEqual(3);
    for (const statement of statements)
      expect(await seqScans(statement), statement.text).not.toContain("ssoProvider");
  });
});
