import * as v from "valibot";
import { afterEach, describe, expect, it } from "vitest";
import { DATABASE_KINDS, testAuth, type TestAuth } from "@latchkey/test-support";
import { endpoint, inTransactionContext, type EndpointContext, type User } from "../src/index.ts";

/** What a user-create after-hook saw when it ran. */
interface Seen {
  email: string;
  /** Whether the transaction's callback had returned (the commit is after it). */
  afterCallback: boolean;
  /** Whether the hook's adapter reads the row (it must be the committed, outer one). */
  visible: boolean;
  outerAdapter: boolean;
}

let current: TestAuth | undefined;
afterEach(async () => {
  await current?.close();
  current = undefined;
});

const TWO_USERS = v.object({ prefix: v.string(), fail: v.optional(v.boolean()) });

/** An instance whose plugin route writes users inside one transaction, then throws when asked. */
async function instance(db: (typeof DATABASE_KINDS)[number]) {
  const seen: Seen[] = [];
  let callbackReturned = false;
  let outer: EndpointContext | undefined;
  const t = await testAuth(
    {
      databaseHooks: {
        user: {
          create: {
            after: async (user, ctx) => {
              const row = await ctx!.context.adapter.findOne<User>({ model: "user", where: [{ field: "id", value: user.id as string }] });
              seen.push({
                email: user.email as string,
                afterCallback: callbackReturned,
                visible: row !== null,
                outerAdapter: ctx!.context.adapter === outer!.context.adapter,
              });
            },
          },
        },
      },
      plugins: [
        {
          id: "two-users",
          endpoints: {
            twoUsers: endpoint("/two-users", { method: "POST", body: TWO_USERS }, async (ctx) => {
              const body = ctx.body;
              outer = ctx;
              callbackReturned = false;
              try {
                await inTransactionContext(ctx, async (trxCtx) => {
                  for (const n of [1, 2]) {
                    await trxCtx.context.internalAdapter.createUser({ email: `${body.prefix}${n}@example.com`, name: "N" }, trxCtx);
                  }
                  if (body.fail) throw new Error("roll back");
                  callbackReturned = true;
                });
              } catch {
                return { rolledBack: true };
              }
              return { rolledBack: false };
            }),
          },
        },
      ],
    },
    { db },
  );
  current = t;
  const api = t.auth.api as unknown as { twoUsers(input: { body: v.InferInput<typeof TWO_USERS> }): Promise<{ rolledBack: boolean }> };
  const call = (body: v.InferInput<typeof TWO_USERS>) => api.twoUsers({ body });
  return { t, seen, call };
}

describe.each(DATABASE_KINDS)("database after-hooks of writes inside inTransactionContext (%s)", (db) => {
  it("run once the transaction has committed, in write order, with the outer context", async () => {
    const { seen, call } = await instance(db);
    expect(await call({ prefix: "ok" })).toEqual({ rolledBack: false });
    expect(seen).toEqual([
      { email: "ok1@example.com", afterCallback: true, visible: true, outerAdapter: true },
      { email: "ok2@example.com", afterCallback: true, visible: true, outerAdapter: true },
    ]);
  });

  it("never run for writes a rollback undid", async () => {
    const { t, seen, call } = await instance(db);
    expect(await call({ prefix: "no", fail: true })).toEqual({ rolledBack: true });
    expect(seen).toEqual([]);
    const users = await t.auth.$context.adapter.findMany({ model: "user", where: [{ field: "email", value: "no1@example.com" }] });
    expect(users).toEqual([]);
  });
});
