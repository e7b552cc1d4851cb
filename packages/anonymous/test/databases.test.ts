import type { DatabaseKind, TestAuth } from "@latchkey/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anonymousInstance, client, PLACEHOLDER, signInAnonymously, signUp } from "./instance.ts";

const KINDS: DatabaseKind[] = ["postgres", "mysql"];

describe.each(KINDS)("anonymous users on %s", (kind) => {
  let t: TestAuth;
  beforeAll(async () => {
    t = await anonymousInstance(kind, { schema: { user: { fields: { isAnonymous: "is_anonymous" } } } });
  });
  afterAll(() => t.close());

  it("signs in anonymously (the flag in a renamed column), links on sign-up, deletes on request", async () => {
    const browser = client(t.auth);
    const anon = await signInAnonymously(browser);
    expect(anon.user.email).toMatch(PLACEHOLDER);
    expect(anon.user.isAnonymous).toBe(true);
    expect((await browser.post("/sign-in/anonymous")).status).toBe(400);
    const realId = await signUp(browser, `real-${kind}@example.com`);
    expect(await t.auth.$context.internalAdapter.findUserById(anon.user.id)).toBeNull();
    expect(
      (await browser.get<{ user: { id: string; isAnonymous: boolean } }>("/get-session")).json?.user,
    ).toMatchObject({
      id: realId,
      isAnonymous: false,
    });

    const other = client(t.auth);
    const second = await signInAnonymously(other);
    expect((await other.post("/delete-anonymous-user")).json).toEqual({ success: true });
    expect(await t.auth.$context.internalAdapter.findUserById(second.user.id)).toBeNull();
  });

  it("the column is is_anonymous in the database", async () => {
    const browser = client(t.auth);
    const anon = await signInAnonymously(browser);
    expect(await isAnonymousColumn(t, anon.user.id)).toBe(true);
  });
});

/** Reads `is_anonymous` by its physical name, through the test database's own driver. */
async function isAnonymousColumn(t: TestAuth, id: string): Promise<boolean> {
  type Rows = Array<{ is_anonymous: unknown }>;
  if (t.database.kind === "postgres") {
    const pool = t.database.driver as unknown as {
      query(sql: string, params: unknown[]): Promise<{ rows: Rows }>;
    };
    const { rows } = await pool.query('select is_anonymous from "user" where id = $1', [id]);
    return Boolean(rows[0]?.is_anonymous);
  }
  const pool = t.database.driver as unknown as {
    promise(): { query(sql: string, params: unknown[]): Promise<[Rows, unknown]> };
  };
  const [rows] = await pool.promise().query("select is_anonymous from `user` where id = ?", [id]);
  return Number(rows[0]?.is_anonymous) === 1;
}
