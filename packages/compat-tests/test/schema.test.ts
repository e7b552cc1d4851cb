import { randomBytes } from "node:crypto";
import { createRequire } from "node:module";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { betterAuth } from "better-auth";
import { getMigrations } from "better-auth/db/migration";
import { passkey } from "@better-auth/passkey";
import {
  admin,
  anonymous,
  deviceAuthorization,
  jwt,
  lastLoginMethod,
  organization,
  phoneNumber,
  siwe,
  twoFactor,
  username,
} from "better-auth/plugins";
import {
  Kysely,
  MysqlDialect,
  PostgresDialect,
  sql,
  type MysqlPool,
  type PostgresPool,
  type PostgresPoolClient,
} from "kysely";
import {
  coreSchema,
  createLogger,
  rateLimitSchema,
  resolveSchema,
  type Adapter,
  type SchemaDefinition,
} from "@latchkey/core";
import { kyselyAdapter } from "@latchkey/adapter-kysely";
import { openSqlite, tempDatabaseFile, type SqliteConnection } from "./support/sqlite.ts";

// Reference plugins that declare tables: their `schema` objects are fed to both migration tools,
// so core tables, plugin tables, columns added to core tables, field-level and table-level
// indexes (device-authorization) and foreign keys are all compared.
const plugins = [
  twoFactor(),
  organization({ teams: { enabled: true } }),
  admin(),
  username(),
  anonymous(),
  phoneNumber(),
  deviceAuthorization(),
  jwt(),
  siwe({ domain: "example.com", getNonce: async () => "nonce", verifyMessage: async () => true }),
  lastLoginMethod({ storeInDatabase: true }),
  passkey(),
];

const referenceOptions = (database: unknown): Parameters<typeof getMigrations>[0] =>
  ({
    database,
    secret: "better-auth-secret-that-is-long-enough-for-validation-test",
    baseURL: "http://localhost:3000",
    emailAndPassword: { enabled: true },
    rateLimit: { enabled: true, storage: "database" },
    plugins,
    logger: { disabled: true },
  }) as Parameters<typeof getMigrations>[0];

const latchkeySchema = resolveSchema([
  { owner: "core", schema: coreSchema },
  { owner: "rate-limit", schema: rateLimitSchema },
  ...plugins.map((p) => ({ owner: p.id, schema: p.schema as unknown as SchemaDefinition })),
]);

const latchkey = (database: object): Adapter =>
  kyselyAdapter(database)({ schema: latchkeySchema, logger: createLogger({ disabled: true }) });

/** The reference's plan for a database: empty lists mean it sees nothing to create. */
async function referencePlan(
  database: unknown,
): Promise<{ toBeCreated: unknown[]; toBeAdded: unknown[]; toBeAddedIndexes: unknown[] }> {
  const { toBeCreated, toBeAdded, toBeAddedIndexes } = await getMigrations(referenceOptions(database));
  return { toBeCreated, toBeAdded, toBeAddedIndexes };
}

const nothingToDo = { toBeCreated: [], toBeAdded: [], toBeAddedIndexes: [] };

describe("schema: SQLite, Latchkey createTables vs reference migrations", () => {
  const files = [tempDatabaseFile(), tempDatabaseFile()];
  let ours: SqliteConnection;
  let theirs: SqliteConnection;
  const ddl = (db: SqliteConnection): unknown[] =>
    db.prepare("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name").all([]);

  beforeAll(async () => {
    ours = openSqlite(files[0]!.file);
    theirs = openSqlite(files[1]!.file);
    await latchkey(ours).createTables?.();
    await (await getMigrations(referenceOptions(theirs))).runMigrations();
  });
  afterAll(() => {
    ours.close();
    theirs.close();
    for (const f of files) f.remove();
  });

  it("a database created by Latchkey leaves the reference's getMigrations nothing to do", async () => {
    expect(await referencePlan(ours)).toEqual(nothingToDo);
  });

  it("a database created by the reference passes Latchkey's schema check, and createTables changes nothing", async () => {
    const adapter = latchkey(theirs);
    expect(await adapter.findSchemaProblems?.()).toEqual([]);
    const before = ddl(theirs);
    await adapter.createTables?.();
    expect(ddl(theirs)).toEqual(before);
  });

  it("both databases hold the same CREATE TABLE and CREATE INDEX statements", () => {
    expect(ddl(ours).length).toBeGreaterThan(20);
    expect(ddl(ours)).toEqual(ddl(theirs));
  });

  it("rows written by one implementation read back identically through the other", async () => {
    const ctx = await betterAuth({ ...referenceOptions(theirs), plugins: [] }).$context;
    const adapter = latchkey(theirs);
    const now = new Date("2024-03-04T05:06:07.089Z");
    const user = {
      id: "u1",
      name: "Ada",
      email: "ada@example.com",
      emailVerified: true,
      image: null,
      createdAt: now,
      updatedAt: now,
    };
    await adapter.create({ model: "user", data: { ...user, twoFactorEnabled: false, banned: null } });
    const viaReference = await ctx.adapter.findOne<Record<string, unknown>>({
      model: "user",
      where: [{ field: "id", value: "u1" }],
    });
    expect(viaReference).toMatchObject(user);
    await ctx.adapter.create({
      model: "rateLimit",
      data: { key: "1.2.3.4|/sign-in/email", count: 3, lastRequest: 1_717_171_717_171 },
    });
    const limit = await adapter.findOne({
      model: "rateLimit",
      where: [{ field: "key", value: "1.2.3.4|/sign-in/email" }],
    });
    expect(limit).toMatchObject({ count: 3, lastRequest: 1_717_171_717_171 });
  });
});

// PostgreSQL and MariaDB: both implementations get the same Kysely instance (the reference takes
// `{ db, type }`). Drivers come from better-auth's own peer installs. `pg`'s Pool cannot load under
// this project's `--conditions import` (pg-pool resolves to its ESM build inside a require), so a
// pool that opens one `pg` Client per checkout stands in for it.
const fromBetterAuth = createRequire(createRequire(import.meta.url).resolve("better-auth"));
type PgClient = PostgresPoolClient & { connect(): Promise<void>; end(): Promise<void> };
const PgClient = fromBetterAuth("pg/lib/client") as new (config: object) => PgClient;
const mysql2 = fromBetterAuth("mysql2") as { createPool(config: object): MysqlPool };

const PG = { host: "127.0.0.1", port: 5432, user: "postgres" };
const MYSQL = { host: "127.0.0.1", port: 3306, user: "root", password: "" };
type DB = Kysely<Record<string, never>>;

const pgPool = (database: string): PostgresPool => ({
  async connect() {
    const client = new PgClient({ ...PG, database });
    await client.connect();
    return Object.assign(client, { release: () => void client.end() });
  },
  async end() {},
});

interface Server {
  type: "postgres" | "mysql";
  admin: () => DB;
  open: (database: string) => DB;
  /** Every column with its type, nullability and default, every index, every foreign key. */
  describe: (db: DB) => Promise<Record<string, unknown>[][]>;
}

const servers: Server[] = [
  {
    type: "postgres",
    admin: () => new Kysely({ dialect: new PostgresDialect({ pool: pgPool("test") }) }),
    open: (database) => new Kysely({ dialect: new PostgresDialect({ pool: pgPool(database) }) }),
    describe: async (db) => [
      (
        await sql<
          Record<string, unknown>
        >`SELECT table_name, column_name, data_type, is_nullable, column_default FROM information_schema.columns WHERE table_schema = current_schema() ORDER BY table_name, column_name`.execute(
          db,
        )
      ).rows,
      (
        await sql<
          Record<string, unknown>
        >`SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() ORDER BY tablename, indexname`.execute(
          db,
        )
      ).rows,
      (
        await sql<
          Record<string, unknown>
        >`SELECT conname, pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE connamespace = current_schema()::regnamespace ORDER BY conname`.execute(
          db,
        )
      ).rows,
    ],
  },
  {
    type: "mysql",
    admin: () =>
      new Kysely({
        dialect: new MysqlDialect({ pool: mysql2.createPool({ ...MYSQL, connectionLimit: 2 }) }),
      }),
    open: (database) =>
      new Kysely({
        dialect: new MysqlDialect({ pool: mysql2.createPool({ ...MYSQL, database, connectionLimit: 5 }) }),
      }),
    describe: async (db) => [
      (
        await sql<
          Record<string, unknown>
        >`SELECT table_name AS t, column_name AS c, column_type AS type, is_nullable AS nullable, column_default AS def FROM information_schema.columns WHERE table_schema = DATABASE() ORDER BY t, c`.execute(
          db,
        )
      ).rows,
      (
        await sql<
          Record<string, unknown>
        >`SELECT table_name AS t, index_name AS i, non_unique AS n, column_name AS c FROM information_schema.statistics WHERE table_schema = DATABASE() ORDER BY t, i, seq_in_index`.execute(
          db,
        )
      ).rows,
      (
        await sql<
          Record<string, unknown>
        >`SELECT table_name AS t, column_name AS c, referenced_table_name AS rt, referenced_column_name AS rc FROM information_schema.key_column_usage WHERE table_schema = DATABASE() AND referenced_table_name IS NOT NULL ORDER BY t, c`.execute(
          db,
        )
      ).rows,
    ],
  },
];

/** Unique string columns of the schema: MySQL's one deliberate type difference (spec: VARCHAR(191)). */
const uniqueTextColumns = new Set(
  Object.values(latchkeySchema).flatMap((m) =>
    Object.values(m.fields).flatMap((f) =>
      f.unique && (f.type === "string" || Array.isArray(f.type)) ? [`${m.tableName}.${f.fieldName}`] : [],
    ),
  ),
);

for (const server of servers) {
  describe(`schema: ${server.type}, Latchkey createTables vs reference migrations`, () => {
    const names = [0, 1].map(() => `lk_${randomBytes(6).toString("hex")}`);
    const quote = (name: string) => (server.type === "mysql" ? `\`${name}\`` : `"${name}"`);
    let admin: DB;
    let ours: DB;
    let theirs: DB;

    beforeAll(async () => {
      admin = server.admin();
      for (const name of names) await sql.raw(`CREATE DATABASE ${quote(name)}`).execute(admin);
      ours = server.open(names[0]!);
      theirs = server.open(names[1]!);
      await latchkey(ours).createTables?.();
      await (await getMigrations(referenceOptions({ db: theirs, type: server.type }))).runMigrations();
    });
    afterAll(async () => {
      await ours?.destroy();
      await theirs?.destroy();
      for (const name of names) await sql.raw(`DROP DATABASE IF EXISTS ${quote(name)}`).execute(admin);
      await admin?.destroy();
    });

    it("a database created by Latchkey leaves the reference's getMigrations nothing to do", async () => {
      expect(await referencePlan({ db: ours, type: server.type })).toEqual(nothingToDo);
    });

    it("a database created by the reference passes Latchkey's schema check, and createTables changes nothing", async () => {
      const adapter = latchkey(theirs);
      expect(await adapter.findSchemaProblems?.()).toEqual([]);
      const before = await server.describe(theirs);
      await adapter.createTables?.();
      expect(await server.describe(theirs)).toEqual(before);
    });

    it(
      server.type === "mysql"
        ? "same columns, indexes and foreign keys, except unique text columns: varchar(191), not varchar(255)"
        : "same columns, indexes and foreign keys",
      async () => {
        const [ourColumns, ...ourRest] = await server.describe(ours);
        const [theirColumns, ...theirRest] = await server.describe(theirs);
        expect(ourColumns?.length).toBeGreaterThan(80);
        expect(ourRest.map((rows) => rows.length > 5)).toEqual([true, true]);
        expect(ourRest).toEqual(theirRest);
        const differing = (ourColumns ?? []).flatMap((col, i) =>
          JSON.stringify(col) === JSON.stringify(theirColumns?.[i]) ? [] : [[col, theirColumns?.[i]]],
        );
        if (server.type === "postgres") expect(differing).toEqual([]);
        else {
          expect(new Set(differing.map(([col]) => `${col?.t}.${col?.c}`))).toEqual(uniqueTextColumns);
          for (const [col, their] of differing)
            expect([col?.type, their?.type]).toEqual(["varchar(191)", "varchar(255)"]);
        }
      },
    );
  });
}
