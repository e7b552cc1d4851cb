import { describe, expect, it } from "vitest";
import type { Row } from "@latchkey/core";
import type { Harness } from "../harness.js";

const verification = (h: Harness, identifier: string): Row => {
  const now = new Date();
  return {
    id: h.id("v"),
    identifier,
    value: "v",
    expiresAt: new Date(now.getTime() + 60_000),
    createdAt: now,
    updatedAt: now,
  };
};

const counter = async (h: Harness, key: string, count: number): Promise<void> => {
  await h.adapter.create({
    model: "rateLimit",
    data: { id: h.id("rl"), key, count, lastRequest: Date.now() },
  });
};

const countOf = async (h: Harness, key: string): Promise<unknown> =>
  (await h.adapter.findOne({ model: "rateLimit", where: [{ field: "key", value: key }] }))?.count;

/** Single-use consumption and guarded counters, alone and under concurrent callers. */
export function atomicCases(h: Harness): void {
  describe("consumeOne", () => {
    it("deletes and returns one matching row, then null", async () => {
      const data = verification(h, "once");
      await h.adapter.create({ model: "verification", data });
      const row = await h.adapter.consumeOne({
        model: "verification",
        where: [{ field: "identifier", value: "once" }],
      });
      expect(row).toMatchObject({ id: data.id, identifier: "once", value: "v" });
      expect(row?.expiresAt).toBeInstanceOf(Date);
      expect(
        await h.adapter.consumeOne({
          model: "verification",
          where: [{ field: "identifier", value: "once" }],
        }),
      ).toBeNull();
    });

    it("deletes at most one row when several match", async () => {
      for (let i = 0; i < 3; i++)
        await h.adapter.create({ model: "verification", data: verification(h, "many") });
      await h.adapter.consumeOne({ model: "verification", where: [{ field: "identifier", value: "many" }] });
      expect(
        await h.adapter.count({ model: "verification", where: [{ field: "identifier", value: "many" }] }),
      ).toBe(2);
    });

    it("20 concurrent callers for one row: exactly one gets it", async () => {
      await h.adapter.create({ model: "verification", data: verification(h, "race") });
      const results = await Promise.all(
        Array.from({ length: 20 }, () =>
          h.adapter.consumeOne({ model: "verification", where: [{ field: "identifier", value: "race" }] }),
        ),
      );
      expect(results.filter((r) => r !== null)).toHaveLength(1);
      expect(await h.adapter.count({ model: "verification" })).toBe(0);
    });

    it("concurrent callers over five rows never get the same row twice", async () => {
      for (let i = 0; i < 5; i++)
        await h.adapter.create({ model: "verification", data: verification(h, "pool") });
      const results = await Promise.all(
        Array.from({ length: 20 }, () =>
          h.adapter.consumeOne({ model: "verification", where: [{ field: "identifier", value: "pool" }] }),
        ),
      );
      const ids = results.flatMap((r) => (r ? [r.id] : []));
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.length).toBeGreaterThanOrEqual(1);
      expect(await h.adapter.count({ model: "verification" })).toBe(5 - ids.length);
    });
  });

  describe("incrementOne", () => {
    it("adds deltas, assigns set, returns the updated row", async () => {
      await counter(h, "k1", 1);
      const row = await h.adapter.incrementOne({
        model: "rateLimit",
        where: [{ field: "key", value: "k1" }],
        increment: { count: 2 },
        set: { lastRequest: 5 },
      });
      expect(row).toMatchObject({ key: "k1", count: 3, lastRequest: 5 });
    });

    it("answers null when the guard matches nothing", async () => {
      await counter(h, "k2", 5);
      const guard = [
        { field: "key", value: "k2" },
        { field: "count", operator: "lt" as const, value: 5 },
      ];
      expect(
        await h.adapter.incrementOne({ model: "rateLimit", where: guard, increment: { count: 1 } }),
      ).toBeNull();
      expect(await countOf(h, "k2")).toBe(5);
    });

    it("rejects an empty increment with an empty set", async () => {
      await counter(h, "k3", 0);
      await expect(
        h.adapter.incrementOne({ model: "rateLimit", where: [{ field: "key", value: "k3" }], increment: {} }),
      ).rejects.toThrow(/increment/);
    });

    it("50 concurrent increments add up exactly", async () => {
      await counter(h, "hot", 0);
      const results = await Promise.all(
        Array.from({ length: 50 }, () =>
          h.adapter.incrementOne({
            model: "rateLimit",
            where: [{ field: "key", value: "hot" }],
            increment: { count: 1 },
          }),
        ),
      );
      expect(results.every((r) => r !== null)).toBe(true);
      expect(results.map((r) => r?.count).sort((a, b) => Number(a) - Number(b))).toEqual(
        Array.from({ length: 50 }, (_, i) => i + 1),
      );
      expect(await countOf(h, "hot")).toBe(50);
    });

    it("a guarded decrement never goes below zero under 30 concurrent callers", async () => {
      await counter(h, "stock", 10);
      const guard = [
        { field: "key", value: "stock" },
        { field: "count", operator: "gt" as const, value: 0 },
      ];
      const results = await Promise.all(
        Array.from({ length: 30 }, () =>
          h.adapter.incrementOne({ model: "rateLimit", where: guard, increment: { count: -1 } }),
        ),
      );
      expect(results.filter((r) => r !== null)).toHaveLength(10);
      expect(await countOf(h, "stock")).toBe(0);
    });

    it("a capped counter stops exactly at its limit under 20 concurrent callers", async () => {
      await counter(h, "cap", 0);
      const guard = [
        { field: "key", value: "cap" },
        { field: "count", operator: "lt" as const, value: 5 },
      ];
      const results = await Promise.all(
        Array.from({ length: 20 }, () =>
          h.adapter.incrementOne({ model: "rateLimit", where: guard, increment: { count: 1 } }),
        ),
      );
      expect(results.filter((r) => r !== null)).toHaveLength(5);
      expect(await countOf(h, "cap")).toBe(5);
    });
  });
}
