import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  coreSchema,
  createLogger,
  rateLimitSchema,
  resolveSchema,
  type Row,
  type SchemaDefinition,
} from "@latchkey/core";
import { kyselyAdapter, type KyselyAdapter } from "../src/index.js";
import { freshMysql, freshPostgres, freshSqlite } from "./support/databases.js";

const extra = {
  note: {
    fields: {
      flag: { type: "boolean" },
      at: { type: "date" },
      tags: { type: "string[]" },
      meta: { type: "json" },
      big: { type: "number", bigint: true },
    },
  },
} satisfies SchemaDefinition;
const schema = resolveSchema([
  { owner: "core", schema: coreSchema },
  { owner: "rate-limit", schema: rateLimitSchema },
  { owner: "test", schema: extra },
]);
const at = new Date("2024-05-06T07:08:09.123Z");
const note = { id: "n1", flag: true, at, tags: ["a", "b"], meta: { k: [1, "x"] }, big: 1_717_171_717_171 };

interface Case {
  name: string;
  open(): Promise<{ input: object; done(): Promise<void> }>;
  /** The row as the database hands it back, before the adapter decodes it. */
  stored: Row;
}

const cases: Case[] = [
  {
    name: "sqlite: ISO-8601 text dates with ms and Z, 1/0 booleans, JSON text",
    async open() {
      const { database, remove } = freshSqlite();
      return { input: database, done: async () => remove() };
    },
    stored: {
      id: "n1",
      flag: 1,
      at: "2024-05-06T07:08:09.123Z",
      tags: '["a","b"]',
      meta: '{"k":[1,"x"]}',
      big: 1_717_171_717_171,
    },
  },
  {
    name: "postgres: native booleans and timestamptz, jsonb, bigint as string",
    async open() {
      const { pool, drop } = await freshPostgres();
      return { input: pool, done: drop };
    },
    stored: { id: "n1", flag: true, at, tags: ["a", "b"], meta: { k: [1, "x"] }, big: "1717171717171" },
  },
  {
    name: "mysql: 1/0 booleans, timestamp(3) dates, json columns",
    async open() {
      const { pool, drop } = await freshMysql();
      return { input: pool, done: drop };
    },
    // mysql2 parses json columns itself (MariaDB flags them as JSON), so they arrive parsed.
    stored: { id: "n1", flag: 1, at, tags: ["a", "b"], meta: { k: [1, "x"] }, big: 1_717_171_717_171 },
  },
];

for (const c of cases) {
  describe(`stored encodings, ${c.name}`, () => {
    let adapter: KyselyAdapter;
    let done: () => Promise<void>;
    const raw = (query: string): Promise<Row[]> => adapter.query(query);
    const quote = (name: string): string => (adapter.type === "mysql" ? `\`${name}\`` : `"${name}"`);

    beforeAll(async () => {
      const opened = await c.open();
      done = opened.done;
      adapter = kyselyAdapter(opened.input)({
        schema,
        logger: createLogger({ disabled: true }),
      });
      await adapter.createTables?.();
      await adapter.create({ model: "note", data: note });
    });
    afterAll(async () => {
      await adapter.close?.();
      await done();
    });

    it("writes the reference's encodings", async () => {
      const [row] = await raw(`SELECT * FROM ${quote("note")}`);
      expect(row).toEqual(c.stored);
    });

    it("decodes them back to JavaScript values", async () => {
      expect(await adapter.findOne({ model: "note", where: [{ field: "id", value: "n1" }] })).toEqual(note);
    });

    it("encodes where values the same way (dates, booleans)", async () => {
      expect(
        await adapter.count({
          model: "note",
          where: [
            { field: "at", value: at },
            { field: "flag", value: true },
          ],
        }),
      ).toBe(1);
      expect(await adapter.count({ model: "note", where: [{ field: "flag", value: false }] })).toBe(0);
    });

    it("matches contains against the JSON text of a list column (PostgreSQL: cast from jsonb)", async () => {
      expect(
        await adapter.count({ model: "note", where: [{ field: "tags", operator: "contains", value: "b" }] }),
      ).toBe(1);
    });

    it("reads rows written by another writer in the same encoding", async () => {
      const flag = adapter.type === "postgres" ? "false" : "0";
      const when = adapter.type === "sqlite" ? "'2020-01-02T03:04:05.678Z'" : "'2020-01-02 03:04:05.678'";
      await raw(
        `INSERT INTO ${quote("note")} (${["id", "flag", "at", "tags", "meta", "big"].map(quote).join(", ")}) VALUES ('n2', ${flag}, ${when}, '[]', '{}', 5)`,
      );
      const row = await adapter.findOne({ model: "note", where: [{ field: "id", value: "n2" }] });
      expect(row).toMatchObject({ flag: false, tags: [], meta: {}, big: 5 });
      expect(row?.at).toBeInstanceOf(Date);
    });
  });
}
