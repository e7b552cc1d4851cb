import { afterEach, describe, expect, it } from "vitest";
import { ada, findCookie, sqliteInstance, tempSqliteFile } from "./instance.ts";

const cleanups: Array<() => void> = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

async function onSqlite(options: Parameters<typeof sqliteInstance>[0]) {
  const { file, remove } = tempSqliteFile();
  const t = await sqliteInstance(options, file);
  cleanups.push(remove, () => t.db.close());
  return t;
}

const columns = (db: { prepare(sql: string): { all(): unknown[] } }): string[] =>
  (db.prepare(`PRAGMA table_info("user")`).all() as Array<{ name: string }>).map((c) => c.name);

const storedMethod = (
  db: { prepare(sql: string): { get(...a: unknown[]): unknown } },
  column: string,
): unknown =>
  (
    db.prepare(`SELECT "${column}" AS m FROM "user" WHERE email = ?`).get(ada.email) as
      { m: unknown } | undefined
  )?.m;

describe("storeInDatabase on SQLite", () => {
  it("createTables adds a nullable lastLoginMethod text column to user", async () => {
    const { db } = await onSqlite({ storeInDatabase: true });
    const info = db.prepare(`PRAGMA table_info("user")`).all() as Array<{
      name: string;
      type: string;
      notnull: number;
    }>;
    const column = info.find((c) => c.name === "lastLoginMethod");
    expect(column?.type.toLowerCase()).toBe("text");
    expect(column?.notnull).toBe(0);
  });

  it("without storeInDatabase the user table keeps its core columns only", async () => {
    const { db, post } = await onSqlite({});
    expect(columns(db)).not.toContain("lastLoginMethod");
    expect((await post("/sign-up/email", ada)).status).toBe(200);
  });

  it("sign-up stores 'email'; a later email OTP sign-in overwrites it with 'email-otp'", async () => {
    const { db, post } = await onSqlite({ storeInDatabase: true });
    expect((await post("/sign-up/email", ada)).status).toBe(200);
    expect(storedMethod(db, "lastLoginMethod")).toBe("email");
    expect((await post("/sign-in/email-otp", { email: ada.email, otp: "000000" })).status).toBe(200);
    expect(storedMethod(db, "lastLoginMethod")).toBe("email-otp");
    expect((await post("/sign-in/email", { email: ada.email, password: ada.password })).status).toBe(200);
    expect(storedMethod(db, "lastLoginMethod")).toBe("email");
  });

  it("a user created by the email OTP sign-in gets 'email-otp' in its insert", async () => {
    const { db, post } = await onSqlite({ storeInDatabase: true });
    const response = await post("/sign-in/email-otp", { email: ada.email, otp: "000000" });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { user: { lastLoginMethod: string } }).user.lastLoginMethod).toBe(
      "email-otp",
    );
    expect(storedMethod(db, "lastLoginMethod")).toBe("email-otp");
  });

  it("the session's user carries lastLoginMethod", async () => {
    const { post, request } = await onSqlite({ storeInDatabase: true });
    const signUp = await post("/sign-up/email", ada);
    const cookie = findCookie(signUp, "better-auth.session_token")!.split(";")[0]!;
    const session = await request("/get-session", { headers: { cookie } });
    expect(((await session.json()) as { user: { lastLoginMethod: string } }).user.lastLoginMethod).toBe(
      "email",
    );
  });

  it("schema.user.lastLoginMethod names the column", async () => {
    const { db, post } = await onSqlite({
      storeInDatabase: true,
      schema: { user: { lastLoginMethod: "last_login_method" } },
    });
    expect(columns(db)).toContain("last_login_method");
    expect(columns(db)).not.toContain("lastLoginMethod");
    await post("/sign-up/email", ada);
    expect(storedMethod(db, "last_login_method")).toBe("email");
  });

  it("clients cannot set the column through sign-up or update-user", async () => {
    const { db, post } = await onSqlite({ storeInDatabase: true });
    const signUp = await post("/sign-up/email", { ...ada, lastLoginMethod: "forged" });
    expect(signUp.status).toBe(400);
    expect(await signUp.json()).toEqual({
      code: "FIELD_NOT_ALLOWED",
      message: "lastLoginMethod is not allowed to be set",
    });
    expect(storedMethod(db, "lastLoginMethod")).toBeUndefined();
    await post("/sign-up/email", ada);
    const cookie = (await post("/sign-in/email", { email: ada.email, password: ada.password })).headers
      .getSetCookie()
      .find((c) => c.startsWith("better-auth.session_token="))!
      .split(";")[0]!;
    const update = await post("/update-user", { lastLoginMethod: "forged" }, { cookie });
    expect(update.status).toBe(400);
    expect(((await update.json()) as { code: string }).code).toBe("FIELD_NOT_ALLOWED");
    expect(storedMethod(db, "lastLoginMethod")).toBe("email");
  });
});
