import { afterEach, describe, expect, it } from "vitest";
import { createDemoAuth } from "../src/auth.js";
import { openDatabase, type DemoDatabase } from "../src/database.js";
import { createOutbox } from "../src/outbox.js";

const baseURL = "http://localhost:3999";
let database: DemoDatabase | undefined;

afterEach(async () => {
  await database?.close();
  database = undefined;
});

/** Signs up each address in turn on a fresh in-memory database; answers each user's role. */
async function rolesAfterSignUps(emails: string[], adminEmails?: string[]): Promise<unknown[]> {
  database = await openDatabase({ kind: "sqlite", file: ":memory:" });
  const auth = createDemoAuth({ db: database.db, secret: "s".repeat(32), baseURL, outbox: createOutbox(), adminEmails });
  await auth.createTables();
  const roles: unknown[] = [];
  for (const email of emails) {
    const response = await auth.handler(
      new Request(`${baseURL}/api/auth/sign-up/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: baseURL },
        body: JSON.stringify({ email, name: email, password: "correct horse battery" }),
      }),
    );
    expect(response.status).toBe(200);
    roles.push(((await response.json()) as { user: { role?: unknown } }).user.role);
  }
  return roles;
}

describe("who becomes an administrator", () => {
  it("the first account of an empty database, without ADMIN_EMAILS", async () => {
    expect(await rolesAfterSignUps(["first@example.com", "second@example.com"])).toEqual(["admin", "user"]);
  });

  it("exactly the ADMIN_EMAILS addresses, when set", async () => {
    const roles = await rolesAfterSignUps(["first@example.com", "Boss@Example.com"], ["boss@example.com"]);
    expect(roles).toEqual(["user", "admin"]);
  });
});
