import { describe, expect, it } from "vitest";
import type { Adapter, Row } from "@latchkey/core";
import type { Harness } from "../harness.js";
import { baseSchema } from "../schema.js";

const session = (h: Harness, userId: string, patch: Row = {}): Row => {
  const now = new Date();
  return {
    id: h.id("s"),
    token: h.id("tok"),
    userId,
    expiresAt: new Date(now.getTime() + 3_600_000),
    createdAt: now,
    updatedAt: now,
    ipAddress: "",
    userAgent: "agent",
    ...patch,
  };
};

/** What two `findOne` calls answer: the contract `findSessionWithUser` must match. */
async function twoReads(adapter: Adapter, token: string): Promise<{ session: Row; user: Row } | null> {
  const found = await adapter.findOne({ model: "session", where: [{ field: "token", value: token }] });
  if (!found) return null;
  const user = await adapter.findOne({
    model: "user",
    where: [{ field: "id", value: String(found.userId) }],
  });
  return user ? { session: found, user } : null;
}

/**
 * The optional `findSessionWithUser` (one read of a session and its user): the same rows, decoded
 * the same way, as `findOne` on each table. Skipped for adapters that leave it out.
 */
export function sessionJoinCases(h: Harness): void {
  describe("findSessionWithUser", () => {
    it("answers the session and its user exactly as two findOne calls do", async ({ skip }) => {
      if (!h.adapter.findSessionWithUser) return skip();
      const user = await h.adapter.create({ model: "user", data: h.user({ image: "https://img" }) });
      const data = session(h, String(user.id));
      await h.adapter.create({ model: "session", data });
      await h.adapter.create({ model: "session", data: session(h, String(user.id)) });
      const joined = await h.adapter.findSessionWithUser(String(data.token));
      expect(joined).toEqual(await twoReads(h.adapter, String(data.token)));
      expect(joined?.session).toMatchObject({ id: data.id, token: data.token, userId: user.id });
      expect(joined?.session.expiresAt).toBeInstanceOf(Date);
      expect(joined?.user).toMatchObject({ id: user.id, email: user.email, emailVerified: false });
      expect(joined?.user.createdAt).toBeInstanceOf(Date);
    });

    it("answers null for an unknown token, and once the user is gone", async ({ skip }) => {
      if (!h.adapter.findSessionWithUser) return skip();
      expect(await h.adapter.findSessionWithUser("no-such-token")).toBeNull();
      const user = await h.adapter.create({ model: "user", data: h.user() });
      const data = session(h, String(user.id));
      await h.adapter.create({ model: "session", data });
      // Cascade where foreign keys are enforced; an orphaned session row elsewhere: null either way.
      await h.adapter.delete({ model: "user", where: [{ field: "id", value: String(user.id) }] });
      expect(await h.adapter.findSessionWithUser(String(data.token))).toBeNull();
    });

    it("reads through renamed tables and columns and decodes additional fields", async ({ skip }) => {
      const schema = baseSchema({
        user: {
          modelName: "lk_join_users",
          fields: { emailVerified: "email_verified" },
          additionalFields: {
            plan: { type: "string", required: false },
            credits: { type: "number", required: false },
            beta: { type: "boolean", required: false },
            prefs: { type: "json", required: false },
          },
        },
        session: {
          modelName: "lk_join_sessions",
          fields: { token: "session_token", userId: "user_id" },
          additionalFields: { impersonatedAt: { type: "date", required: false } },
        },
      });
      const renamed = h.make(schema);
      if (!renamed.findSessionWithUser) return skip();
      await renamed.createTables?.();
      try {
        const user = await renamed.create({
          model: "user",
          data: h.user({
            plan: "pro",
            credits: 7,
            beta: true,
            prefs: { theme: "dark" },
            emailVerified: true,
          }),
        });
        const data = session(h, String(user.id), { impersonatedAt: new Date("2026-01-02T03:04:05.000Z") });
        await renamed.create({ model: "session", data });
        const joined = await renamed.findSessionWithUser(String(data.token));
        expect(joined).toEqual(await twoReads(renamed, String(data.token)));
        expect(joined?.user).toMatchObject({
          plan: "pro",
          credits: 7,
          beta: true,
          prefs: { theme: "dark" },
          emailVerified: true,
        });
        expect(joined?.session.impersonatedAt).toEqual(new Date("2026-01-02T03:04:05.000Z"));
      } finally {
        await renamed.deleteMany({ model: "session", where: [] });
        await renamed.deleteMany({ model: "user", where: [] });
      }
    });

    it("sees a session created in the same transaction", async ({ skip }) => {
      if (!h.adapter.findSessionWithUser) return skip();
      const user = await h.adapter.create({ model: "user", data: h.user() });
      const data = session(h, String(user.id));
      const seen = await h.adapter.transaction(async (trx) => {
        await trx.create({ model: "session", data });
        return trx.findSessionWithUser?.(String(data.token));
      });
      expect(seen?.session).toMatchObject({ id: data.id, userId: user.id });
      expect(seen?.user).toMatchObject({ id: user.id });
    });
  });
}
