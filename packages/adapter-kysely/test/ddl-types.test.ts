import { describe, expect, it } from "vitest";
import { resolveSchema, type ResolvedModel, type SchemaDefinition } from "@latchkey/core";
import { columnType, tableIndexes } from "../src/column-type.js";
import { indexName } from "../src/index-name.js";

const model = (schema: SchemaDefinition, name: string): ResolvedModel => {
  const resolved = resolveSchema([{ owner: "t", schema: { user: { fields: {} }, ...schema } }])[name];
  if (!resolved) throw new Error(name);
  return resolved;
};

describe("index names (vectors from the reference's getDatabaseIndexName)", () => {
  it("names field and table indexes <table>_<columns>_idx / _uidx", () => {
    expect(indexName("session", ["userId"], false)).toBe("session_userId_idx");
    expect(indexName("deviceCode", ["deviceCode"], true)).toBe("deviceCode_deviceCode_uidx");
    expect(indexName("t", ["a"], true, "custom_name")).toBe("custom_name");
  });

  it("cuts names over 63 UTF-8 bytes and appends an FNV-1a hash", () => {
    expect(
      indexName("organizationInvitationRequest", ["inviterOrganizationMembershipId", "status"], true),
    ).toBe("organizationInvitationRequest_inviterOrganization_a508228c_uidx");
    expect(indexName("table", ["ćolümn_with_ünïcödé_characters_that_are_long_long"], false)).toBe(
      "table_ćolümn_with_ünïcödé_characters_that_ar_b49edb3c_idx",
    );
  });
});

describe("column types", () => {
  const m = model(
    {
      thing: {
        fields: {
          plain: { type: "string" },
          uniq: { type: "string", unique: true },
          sorted: { type: "string", sortable: true },
          indexed: { type: "string", index: true },
          owner: { type: "string", references: { model: "user", field: "id" } },
          mode: { type: ["a", "b"] },
          uniqueMode: { type: ["a", "b"], unique: true },
          flag: { type: "boolean" },
          n: { type: "number" },
          big: { type: "number", bigint: true },
          at: { type: "date" },
          meta: { type: "json" },
          list: { type: "string[]" },
          nums: { type: "number[]" },
        },
      },
    },
    "thing",
  );
  const types = (dialect: "sqlite" | "postgres" | "mysql"): Record<string, string> =>
    Object.fromEntries([
      ["id", columnType(m, "id", null, dialect)],
      ...Object.entries(m.fields).map(([k, f]) => [k, columnType(m, f.fieldName, f, dialect)]),
    ]);

  it("SQLite: text, integer booleans, date, text JSON", () => {
    expect(types("sqlite")).toEqual({
      id: "text",
      plain: "text",
      uniq: "text",
      sorted: "text",
      indexed: "text",
      owner: "text",
      mode: "text",
      uniqueMode: "text",
      flag: "integer",
      n: "integer",
      big: "bigint",
      at: "date",
      meta: "text",
      list: "text",
      nums: "text",
    });
  });

  it("PostgreSQL: text, boolean, timestamptz, jsonb", () => {
    expect(types("postgres")).toEqual({
      id: "text",
      plain: "text",
      uniq: "text",
      sorted: "text",
      indexed: "text",
      owner: "text",
      mode: "text",
      uniqueMode: "text",
      flag: "boolean",
      n: "integer",
      big: "bigint",
      at: "timestamptz",
      meta: "jsonb",
      list: "jsonb",
      nums: "jsonb",
    });
  });

  it("MySQL: varchar(36) ids, varchar(191) unique text (spec), varchar(255) sortable/indexed, timestamp(3), json", () => {
    expect(types("mysql")).toEqual({
      id: "varchar(36)",
      plain: "text",
      uniq: "varchar(191)",
      sorted: "varchar(255)",
      indexed: "varchar(255)",
      owner: "varchar(36)",
      mode: "text",
      uniqueMode: "varchar(191)",
      flag: "boolean",
      n: "integer",
      big: "bigint",
      at: "timestamp(3)",
      meta: "json",
      list: "json",
      nums: "json",
    });
  });

  it("MySQL: text columns in table-level indexes fit InnoDB's 3072-byte key", () => {
    const indexed = model(
      {
        pair: {
          fields: {
            a: { type: "string" },
            b: { type: "string" },
            c: { type: "string" },
            d: { type: "string" },
            e: { type: "string" },
            n: { type: "number" },
          },
          indexes: [{ fields: ["a", "n"], unique: true }, { fields: ["b", "c", "d", "e", "a"] }],
        },
      },
      "pair",
    );
    expect(tableIndexes(indexed).map((i) => i.name)).toEqual(["pair_a_n_uidx", "pair_b_c_d_e_a_idx"]);
    const field = (name: string) => indexed.fields[name] ?? null;
    expect(columnType(indexed, "a", field("a"), "mysql")).toBe("varchar(153)");
    expect(columnType(indexed, "b", field("b"), "mysql")).toBe("varchar(153)");
    expect(columnType(indexed, "n", field("n"), "mysql")).toBe("integer");
    expect(columnType(indexed, "a", field("a"), "postgres")).toBe("text");
  });

  it("a partial index keeps its rows' predicate and does not size MySQL columns (never created there)", () => {
    const partial = model(
      {
        tenant: {
          fields: { domain: { type: "string", index: true } },
          indexes: [
            {
              fields: ["domain"],
              name: "tenant_list_idx",
              where: { field: "domain", operator: "contains", value: "," },
            },
          ],
        },
      },
      "tenant",
    );
    expect(tableIndexes(partial)).toEqual([
      {
        name: "tenant_list_idx",
        columns: ["domain"],
        unique: false,
        where: { column: "domain", contains: "," },
      },
    ]);
    expect(columnType(partial, "domain", partial.fields.domain ?? null, "mysql")).toBe("varchar(255)");
  });
});
