import { BetterAuthError, type Row } from "@latchkey/core";
import { describe, expect, it } from "vitest";
import type { Harness } from "../harness.js";
import { expectRefused, MARKER } from "../refusal.js";

// Strings every adapter either stores and reads back unchanged or refuses with its own clean
// error: PostgreSQL refuses NUL in text and jsonb, and drivers turn unpaired surrogates into
// U+FFFD when they encode UTF-8, so both are refused everywhere.

const NUL = `a\0b${MARKER}`;
const LONE: Array<[string, string]> = [
  ["a lone high surrogate", `${MARKER}\uD800x`],
  ["a lone low surrogate", `\uDC00${MARKER}`],
  ["a reversed pair", `${MARKER}\uDC00\uD800`],
];
const UNUSUAL = `émoji 😀 𝄞 中文 \u00a0\t\n\r \\ ' " %_ \u2028 \uFEFF end`;
const MIB = 1024 * 1024;

/** NUL characters, unpaired surrogates, unusual but valid text, and very long strings. */
export function hostileTextCases(h: Harness): void {
  const byId = (id: unknown): Promise<Row | null> =>
    h.adapter.findOne({ model: "item", where: [{ field: "id", value: String(id) }] });

  /** Stores `patch` and expects it back intact, or a clean refusal that stored nothing. */
  const intactOrRefused = async (patch: Row, field: string): Promise<void> => {
    const data = h.item(patch);
    const outcome = await h.adapter.create({ model: "item", data }).then(
      () => null,
      (e: unknown) => e,
    );
    if (outcome === null) {
      expect((await byId(data.id))?.[field]).toBe(patch[field]);
      return;
    }
    expect(outcome).toBeInstanceOf(BetterAuthError);
    expect((outcome as Error).message).toContain(`"item.${field}"`);
    expect(await h.adapter.count({ model: "item" })).toBe(0);
  };

  describe("strings that cannot be stored intact", () => {
    it.each([["a NUL character", NUL], ...LONE])(
      "writes refuse %s in text, lists and JSON",
      async (_, text) => {
        await expectRefused(
          h.adapter.create({ model: "item", data: h.item({ note: text }) }),
          "item",
          "note",
        );
        await expectRefused(h.adapter.create({ model: "item", data: h.item({ id: text }) }), "item", "id");
        await expectRefused(
          h.adapter.create({ model: "item", data: h.item({ tags: ["ok", text] }) }),
          "item",
          "tags",
        );
        await expectRefused(
          h.adapter.create({ model: "item", data: h.item({ meta: { v: text } }) }),
          "item",
          "meta",
        );
        await expectRefused(
          h.adapter.create({ model: "item", data: h.item({ meta: { [text]: 1 } }) }),
          "item",
          "meta",
        );
        expect(await h.adapter.count({ model: "item" })).toBe(0);
        const [row] = await h.createItems([{}]);
        const where = [{ field: "id", value: String(row?.id) }];
        await expectRefused(
          h.adapter.update({ model: "item", where, update: { name: text } }),
          "item",
          "name",
        );
        expect(await byId(row?.id)).toEqual(row);
      },
    );

    it("JSON text with an escaped NUL or lone surrogate is refused like the characters", async () => {
      for (const meta of ['{"v":"\\u0000"}', '["\\ud800"]', '"x\\uDC00"']) {
        await expectRefused(h.adapter.create({ model: "item", data: h.item({ meta }) }), "item", "meta");
      }
      // Escapes that decode to valid text are accepted (how JSON text reads back is the values cases' concern).
      await h.createItems([{ meta: '{"v":"\\u00e9\\ud83d\\ude00"}' }]);
      expect(await h.adapter.count({ model: "item" })).toBe(1);
    });

    it.each([["a NUL character", NUL], ...LONE])(
      "where clauses with %s match nothing (lookups carry client input: no error)",
      async (_, text) => {
        await h.createItems([{ name: "present", slug: "x" }]);
        expect(await h.adapter.findOne({ model: "item", where: [{ field: "name", value: text }] })).toBeNull();
        expect(
          await h.adapter.findMany({ model: "item", where: [{ field: "note", operator: "contains", value: text }] }),
        ).toEqual([]);
        // `in` drops the element no column can hold; `ne` holds for every stored value.
        expect(
          await h.adapter.count({ model: "item", where: [{ field: "slug", operator: "in", value: ["x", text] }] }),
        ).toBe(1);
        expect(await h.adapter.count({ model: "item", where: [{ field: "name", operator: "ne", value: text }] })).toBe(1);
        expect(
          await h.adapter.deleteMany({ model: "item", where: [{ field: "slug", operator: "in", value: [text] }] }),
        ).toBe(0);
        expect(await h.adapter.count({ model: "item" })).toBe(1);
        if (h.adapter.findSessionWithUser) expect(await h.adapter.findSessionWithUser(text)).toBeNull();
      },
    );
  });

  describe("strings stored intact", () => {
    it("unusual but valid text round-trips and matches in where clauses", async () => {
      const [row] = await h.createItems([
        { name: UNUSUAL, note: UNUSUAL, tags: [UNUSUAL], meta: { [UNUSUAL]: UNUSUAL } },
      ]);
      expect(await byId(row?.id)).toMatchObject({
        name: UNUSUAL,
        note: UNUSUAL,
        tags: [UNUSUAL],
        meta: { [UNUSUAL]: UNUSUAL },
      });
      const found = await h.adapter.findMany({ model: "item", where: [{ field: "name", value: UNUSUAL }] });
      expect(found.map((r) => r.id)).toEqual([row?.id]);
      const like = await h.adapter.findMany({
        model: "item",
        where: [{ field: "note", operator: "contains", value: "😀 𝄞" }],
      });
      expect(like.map((r) => r.id)).toEqual([row?.id]);
    });

    it("1 MiB in a text column is stored intact or refused cleanly, never cut short", async () => {
      const long = "ab€😀".repeat(MIB / 5) + MARKER;
      await intactOrRefused({ note: long }, "note");
      await intactOrRefused({ note: "x".repeat(MIB) }, "note");
      // A long value in a where clause only fails to match.
      expect(await h.adapter.findMany({ model: "item", where: [{ field: "name", value: long }] })).toEqual(
        [],
      );
    });

    it("strings past MySQL's varchar lengths are stored intact or refused cleanly", async () => {
      await intactOrRefused({ name: "n".repeat(256) }, "name");
      await intactOrRefused({ slug: "😀".repeat(192) }, "slug");
      await intactOrRefused({ id: "i".repeat(37) }, "id");
      // At the limits the values fit everywhere.
      const [row] = await h.createItems([{ name: "n".repeat(255), slug: "😀".repeat(191) }]);
      expect(await byId(row?.id)).toMatchObject({ name: "n".repeat(255), slug: "😀".repeat(191) });
    });

    it("an update with 1 MiB is stored intact or refused without changing the row", async () => {
      const [row] = await h.createItems([{ note: "before" }]);
      const where = [{ field: "id", value: String(row?.id) }];
      const long = "z".repeat(MIB);
      const outcome = await h.adapter.update({ model: "item", where, update: { note: long } }).then(
        () => null,
        (e: unknown) => e,
      );
      if (outcome === null) expect((await byId(row?.id))?.note).toBe(long);
      else {
        expect(outcome).toBeInstanceOf(BetterAuthError);
        expect(await byId(row?.id)).toEqual(row);
      }
    });
  });
}
