import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, type TestAuth, type TestIdP } from "@latchkey/test-support";
import { AUTH, registration, signedIn, ssoInstance, startSSOIdP } from "./instance.ts";
import { recordQueries } from "./query-recorder.ts";

// The SQLite and MariaDB half of domain-lookup-explain.test.ts: among 1,000 providers, no
// statement a sign-in by email domain sends reads ssoProvider by scanning it, lists included
// (SQLite: a partial index, matched on its literal predicate; MariaDB: an index on an invisible
// column holding the predicate).

/** The parts of the test databases' drivers used here (better-sqlite3, a mysql2 pool). */
interface SqliteStatement {
  reader: boolean;
  all(...values: unknown[]): unknown[];
}
interface SqliteDatabase {
  prepare(text: string): SqliteStatement;
  exec(text: string): void;
}
interface Pool {
  query(text: string, values: unknown[], callback: (error: Error | null, rows: unknown) => void): void;
}

interface Plans {
  /** The statements on ssoProvider sent while `run` ran, with their parameters. */
  record(run: () => Promise<void>): Promise<{ text: string; values: unknown[] }[]>;
  /** What of ssoProvider the statement reads by scanning the table (empty: nothing). */
  tableScans(statement: { text: string; values: unknown[] }): Promise<string[]>;
  /** The indexes the statement reads ssoProvider through. */
  indexes(statement: { text: string; values: unknown[] }): Promise<string[]>;
  exec(text: string): Promise<void>;
}

function sqlitePlans(database: SqliteDatabase): Plans {
  // Statements are prepared once and kept: every one on ssoProvider reports each run, from the start.
  let recording: Map<string, unknown[]> | null = null;
  const prepare = database.prepare.bind(database);
  database.prepare = ((text: string) => {
    const statement = prepare(text);
    if (!text.includes('"ssoProvider"') || !statement.reader) return statement;
    const all = statement.all.bind(statement);
    statement.all = ((...values: unknown[]) => {
      recording?.set(text, values);
      return all(...values);
    }) as typeof statement.all;
    return statement;
  }) as typeof database.prepare;
  const plan = (text: string, values: unknown[]) =>
    (database.prepare(`EXPLAIN QUERY PLAN ${text}`).all(...values) as { detail: string }[]).map((row) => row.detail);
  return {
    async record(run) {
      const texts = new Map<string, unknown[]>();
      recording = texts;
      try {
        await run();
      } finally {
        recording = null;
      }
      return [...texts].map(([text, values]) => ({ text, values }));
    },
    async tableScans({ text, values }) {
      return plan(text, values).filter((detail) => /^SCAN ssoProvider$/.test(detail));
    },
    async indexes({ text, values }) {
      return plan(text, values).flatMap((detail) => /USING (?:COVERING )?INDEX (\S+)/.exec(detail)?.[1] ?? []);
    },
    async exec(text) {
      database.exec(text);
    },
  };
}

function mysqlPlans(pool: Pool): Plans {
  const query = <T>(text: string, values: unknown[] = []) =>
    new Promise<T[]>((resolve, reject) => pool.query(text, values, (e, rows) => (e ? reject(e) : resolve(rows as T[]))));
  const explain = (s: { text: string; values: unknown[] }) =>
    query<{ table: string; type: string; key: string | null }>(`EXPLAIN ${s.text}`, s.values);
  return {
    record: (run) => recordQueries(pool, (text) => text.includes("`ssoProvider`") && text.startsWith("SELECT"), run),
    async tableScans(statement) {
      return (await explain(statement)).filter((row) => row.table === "ssoProvider" && row.type === "ALL").map((row) => row.type);
    },
    async indexes(statement) {
      return (await explain(statement)).flatMap((row) => (row.table === "ssoProvider" && row.key ? [row.key] : []));
    },
    async exec(text) {
      await query(text);
    },
  };
}

describe.each(["sqlite", "mysql"] as const)("sign-in by email domain among 1,000 providers (%s query plans)", (kind) => {
  let idp: TestIdP;
  let t: TestAuth;
  let plans: Plans;
  beforeAll(async () => {
    idp = await startSSOIdP(["target", "listed"]);
    t = await ssoInstance(kind, idp);
    plans = kind === "sqlite" ? sqlitePlans(t.database.driver as SqliteDatabase) : mysqlPlans(t.database.driver as Pool);
    const owner = await signedIn(t, "plans");
    const target = await owner.post("/sso/register", { ...registration(idp, "target"), domain: "target.example" });
    expect(target.status).toBe(200);
    const listed = await owner.post("/sso/register", { ...registration(idp, "listed"), domain: "one.example, two.example" });
    expect(listed.status).toBe(200);
    const { userId } = (await t.auth.$context.adapter.findOne<{ userId: string }>({
      model: "ssoProvider",
      where: [{ field: "providerId", value: "target" }],
    }))!;
    const q = kind === "sqlite" ? '"' : "`";
    const rows = Array.from({ length: 1000 }, (_, i) => `('p${i}', '${idp.issuer}', '{}', '${userId}', 'provider-${i}', 'company-${i}.example')`);
    await plans.exec(
      `insert into ${q}ssoProvider${q} (id, issuer, ${q}oidcConfig${q}, ${q}userId${q}, ${q}providerId${q}, domain) values ${rows.join(", ")}`,
    );
    await plans.exec(kind === "sqlite" ? "ANALYZE" : "ANALYZE TABLE ssoProvider");
  }, 60_000);
  afterAll(async () => {
    await t.close();
    await idp.close();
  });

  async function signIn(email: string) {
    let status = 0;
    let url = "";
    const statements = await plans.record(async () => {
      const res = await new Browser("http://localhost:3000", t.auth.handler).post(`${AUTH}/sign-in/sso`, { callbackURL: "/d", email });
      status = res.status;
      url = ((await res.json()) as { url?: string }).url ?? "";
    });
    return { status, provider: url ? new URL(url).searchParams.get("redirect_uri") : null, statements };
  }

  it.each([
    ["the exact domain", "ann@target.example", "target"],
    ["a subdomain", "ann@eu.sales.target.example", "target"],
    ["the first domain of a list", "ann@one.example", "listed"],
    ["a subdomain of the last domain of a list", "bo@mail.two.example", "listed"],
  ])("%s: found without scanning ssoProvider", async (_label, email, providerId) => {
    const { status, provider, statements } = await signIn(email);
    expect(status).toBe(200);
    expect(provider).toBe(`${AUTH}/sso/callback/${providerId}`);
    expect(statements.length).toBeGreaterThanOrEqual(1);
    for (const statement of statements) expect(await plans.tableScans(statement), statement.text).toEqual([]);
  });

  it("an email no provider covers reads the list rows through their index, not the table", async () => {
    const { status, statements } = await signIn("eve@nobody.example");
    expect(status).toBe(404);
    const lists = statements.filter((s) => /\blike\b/i.test(s.text));
    expect(lists).toHaveLength(1);
    for (const statement of statements) expect(await plans.tableScans(statement), statement.text).toEqual([]);
    expect(await plans.indexes(lists[0]!)).toContain("ssoProvider_domain_list_idx");
  });
});
