import { describe, expect, it } from "vitest";
import type { Harness } from "../harness.js";

/** Fails the test instead of hanging when a call deadlocks. */
async function within<T>(ms: number, promise: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms (deadlock?)`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Commit, rollback, nesting, and the root adapter used inside a transaction. */
export function transactionCases(h: Harness): void {
  describe("transaction", () => {
    it("commits every write when the callback resolves, and returns its value", async () => {
      const result = await h.adapter.transaction(async (trx) => {
        await trx.create({ model: "item", data: h.item({ name: "t1" }) });
        await trx.create({ model: "item", data: h.item({ name: "t2" }) });
        return "done";
      });
      expect(result).toBe("done");
      expect(await h.adapter.count({ model: "item" })).toBe(2);
    });

    it("rolls back every write when the callback throws, and rethrows", async () => {
      const [kept] = await h.createItems([{ name: "kept", count: 1 }]);
      const failure = h.adapter.transaction(async (trx) => {
        await trx.create({ model: "item", data: h.item({ name: "gone" }) });
        await trx.update({
          model: "item",
          where: [{ field: "id", value: String(kept?.id) }],
          update: { count: 99 },
        });
        await trx.delete({ model: "item", where: [{ field: "name", value: "kept" }] });
        throw new Error("abort");
      });
      await expect(failure).rejects.toThrow("abort");
      const rows = await h.adapter.findMany({ model: "item" });
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ name: "kept", count: 1 });
    });

    it("sees its own uncommitted writes", async () => {
      await h.adapter.transaction(async (trx) => {
        await trx.create({ model: "item", data: h.item({ name: "mine" }) });
        expect(await trx.count({ model: "item", where: [{ field: "name", value: "mine" }] })).toBe(1);
        expect(
          await trx.incrementOne({
            model: "item",
            where: [{ field: "name", value: "mine" }],
            increment: { count: 2 },
          }),
        ).toMatchObject({ count: 2 });
        expect(
          await trx.consumeOne({ model: "item", where: [{ field: "name", value: "mine" }] }),
        ).toMatchObject({ name: "mine" });
      });
      expect(await h.adapter.count({ model: "item" })).toBe(0);
    });

    it("nested transaction() joins the outer transaction", async () => {
      await h.adapter.transaction(async (trx) => {
        await trx.create({ model: "item", data: h.item({ name: "outer" }) });
        await trx.transaction(async (inner) => {
          await inner.create({ model: "item", data: h.item({ name: "inner" }) });
        });
      });
      expect(await h.adapter.count({ model: "item" })).toBe(2);
      const failure = h.adapter.transaction(async (trx) => {
        await trx.transaction(async (inner) => {
          await inner.create({ model: "item", data: h.item({ name: "lost" }) });
        });
        throw new Error("outer fails");
      });
      await expect(failure).rejects.toThrow("outer fails");
      expect(await h.adapter.count({ model: "item", where: [{ field: "name", value: "lost" }] })).toBe(0);
    });

    it("the root adapter used inside a transaction does not deadlock", async () => {
      await within(
        10_000,
        h.adapter.transaction(async (trx) => {
          await trx.create({ model: "item", data: h.item({ name: "ambient" }) });
          await h.adapter.findMany({ model: "item" });
          await h.adapter.transaction(async (again) => again.count({ model: "item" }));
        }),
      );
      expect(await h.adapter.count({ model: "item", where: [{ field: "name", value: "ambient" }] })).toBe(1);
    });

    it("a failed unique insert inside a transaction rolls the transaction back", async () => {
      await h.createItems([{ slug: "unique-in-trx" }]);
      const failure = h.adapter.transaction(async (trx) => {
        await trx.create({ model: "item", data: h.item({ name: "before-dup" }) });
        await trx.create({ model: "item", data: h.item({ slug: "unique-in-trx" }) });
      });
      await expect(failure).rejects.toThrow();
      expect(await h.adapter.count({ model: "item", where: [{ field: "name", value: "before-dup" }] })).toBe(
        0,
      );
    });
  });
}
