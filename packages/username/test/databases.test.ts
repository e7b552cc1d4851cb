import { client, type DatabaseKind, type TestAuth } from "@latchkey/test-support";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PASSWORD, signInUsername, signUpWith, storedUser, usernameInstance } from "./instance.ts";

describe.each<DatabaseKind>(["postgres", "mysql"])("username on %s", (kind) => {
  let t: TestAuth;
  beforeAll(async () => {
    t = await usernameInstance(kind);
  });
  afterAll(() => t.close());

  it("sign-up, sign-in by username, availability and a taken name", async () => {
    const { answer } = await signUpWith(t, `db-${kind}@example.com`, { username: `User_${kind}` });
    expect(answer.status).toBe(200);
    expect(await storedUser(t, `db-${kind}@example.com`)).toMatchObject({ username: `user_${kind}`, displayUsername: `User_${kind}` });
    expect((await signInUsername(t, { username: `USER_${kind}`, password: PASSWORD })).status).toBe(200);
    expect((await client(t.auth).post("/is-username-available", { username: `user_${kind}` })).json).toEqual({ available: false });
    expect((await signUpWith(t, `db2-${kind}@example.com`, { username: `user_${kind}` })).answer.status).toBe(400);
  });

  it("the unique index holds under parallel sign-ups of one name: one user gets it", async () => {
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => signUpWith(t, `race${i}-${kind}@example.com`, { username: `racer_${kind}` })),
    );
    expect(answers.filter((a) => a.answer.status === 200)).toHaveLength(1);
    for (const a of answers) expect(a.answer.status).toBeLessThan(500);
    const holders = await t.auth.$context.adapter.count({ model: "user", where: [{ field: "username", value: `racer_${kind}` }] });
    expect(holders).toBe(1);
  });
});
