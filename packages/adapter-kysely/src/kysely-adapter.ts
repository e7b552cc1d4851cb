import {
  assertDelta,
  BetterAuthError,
  type Adapter,
  type ResolvedModel,
  type Row,
  type Where,
} from "@latchkey/core";
import { decodeRow, decodeWith, encodeRow, readPlan } from "./encode.js";
import { run, type Executor } from "./executor.js";
import { fieldOf, modelOf, outputFields } from "./model.js";
import { pageSql, sqlitePage } from "./page.js";
import { sessionWithUser } from "./session-join.js";
import { consumeOne, increments, updateOne, type Assignments } from "./single-row.js";
import { id, join, raw, sql, table, type Fragment } from "./sql.js";
import { whereClause, whereSql } from "./where.js";

/** Arguments of one adapter operation. */
type Args<K extends keyof Adapter> = Adapter[K] extends ((args: infer A) => unknown) | undefined ? A : never;

/** The data operations of the adapter, sent through `x` (the root instance or a transaction). */
export function dataOperations(x: Executor): Omit<Adapter, "id" | "transaction"> {
  const model = (name: string): ResolvedModel => modelOf(x.schema, name);
  const where = (m: ResolvedModel, w: Where[] | undefined): Fragment | null => whereSql(m, w, x.type, x.flags);
  const columns = (m: ResolvedModel, select?: string[]): Fragment =>
    select?.length ? join(outputFields(m, select).map((f) => id(fieldOf(m, f).fieldName))) : raw("*");
  const assignments = (m: ResolvedModel, data: Row): Assignments =>
    encodeRow(m, data, x.type, x.fits).map(([column, value]) => sql`${id(column)} = ${value}`);
  const rows = async (query: Fragment): Promise<Row[]> => (await run(x, query)).rows;

  const findOne = async <T extends Row>(
    m: ResolvedModel,
    w: Where[],
    select?: string[],
  ): Promise<T | null> => {
    const query = sql`SELECT ${columns(m, select)} FROM ${table(m.tableName)}${whereClause(where(m, w))} LIMIT 1`;
    const [row] = await rows(query);
    return row ? decodeRow<T>(m, row, select) : null;
  };

  return {
    async create<T extends Row>({ model: name, data, select }: Args<"create">): Promise<T> {
      const m = model(name);
      const pairs = encodeRow(m, data, x.type, x.fits);
      const into = table(m.tableName);
      const names = join(pairs.map(([column]) => id(column)));
      const values = join(pairs.map(([, value]) => value));
      if (x.type !== "mysql") {
        const [row] = await rows(sql`INSERT INTO ${into} (${names}) VALUES (${values}) RETURNING *`);
        if (!row) throw new BetterAuthError(`Insert into "${m.tableName}" returned no row.`);
        return decodeRow<T>(m, row, select);
      }
      // MySQL has no RETURNING: read the row back by the id core generated.
      if (data.id === undefined || data.id === null) {
        throw new BetterAuthError(`Creating a "${name}" row on MySQL needs an id.`);
      }
      await run(x, sql`INSERT INTO ${into} (${names}) VALUES (${values})`);
      const row = await findOne<T>(m, [{ field: "id", value: String(data.id) }], select);
      if (!row) throw new BetterAuthError(`Inserted "${m.tableName}" row could not be read back.`);
      return row;
    },
    findOne: async <T extends Row>({ model: name, where: w, select }: Args<"findOne">) =>
      findOne<T>(model(name), w, select),
    async findMany<T extends Row>(args: Args<"findMany">): Promise<T[]> {
      const m = model(args.model);
      const query = sql`SELECT ${columns(m, args.select)} FROM ${table(m.tableName)}${whereClause(where(m, args.where))}${pageSql(x, m, args)}`;
      const plan = readPlan(m, args.select);
      return (await rows(query)).map((row) => decodeWith<T>(plan, row));
    },
    async count({ model: name, where: w }) {
      const m = model(name);
      const query = sql`SELECT COUNT(*) AS ${id("count")} FROM ${table(m.tableName)}${whereClause(where(m, w))}`;
      const [row] = await rows(query);
      return Number(row?.count ?? 0);
    },
    async update<T extends Row>({ model: name, where: w, update }: Args<"update">): Promise<T | null> {
      if (w.length === 0) return null;
      const m = model(name);
      const set = assignments(m, update);
      if (set.length === 0) return findOne<T>(m, w);
      const row = await updateOne(x, m, where(m, w), set);
      return row ? decodeRow<T>(m, row) : null;
    },
    async updateMany({ model: name, where: w, update }) {
      const m = model(name);
      const set = assignments(m, update);
      if (set.length === 0) return 0;
      return (await run(x, sql`UPDATE ${table(m.tableName)} SET ${join(set)}${whereClause(where(m, w))}`)).affected;
    },
    async delete({ model: name, where: w }) {
      // An empty `where` deletes nothing here, unlike `deleteMany`.
      if (w.length === 0) return;
      const m = model(name);
      await run(x, sql`DELETE FROM ${table(m.tableName)}${whereClause(where(m, w))}`);
    },
    async deleteMany({ model: name, where: w }) {
      const m = model(name);
      return (await run(x, sql`DELETE FROM ${table(m.tableName)}${whereClause(where(m, w))}`)).affected;
    },
    findSessionWithUser: sessionWithUser(x),
    // Elsewhere core's findPage reads the page, the joins and the count apart, as the reference does.
    ...(x.type === "sqlite" ? { findPage: sqlitePage(x) } : {}),
    async consumeOne<T extends Row>({ model: name, where: w }: Args<"consumeOne">): Promise<T | null> {
      const m = model(name);
      const row = await consumeOne(x, m, where(m, w));
      return row ? decodeRow<T>(m, row) : null;
    },
    async incrementOne<T extends Row>(args: Args<"incrementOne">): Promise<T | null> {
      const { model: name, where: w, increment, set } = args;
      const m = model(name);
      const column = (field: string): string => fieldOf(m, field).fieldName;
      for (const [field, delta] of Object.entries(increment)) assertDelta(m.model, field, delta);
      const changes = [...increments(increment, column), ...assignments(m, set ?? {})];
      if (changes.length === 0) {
        throw new BetterAuthError("incrementOne requires a non-empty `increment` or `set`; both were empty.");
      }
      const row = await updateOne(x, m, where(m, w), changes);
      return row ? decodeRow<T>(m, row) : null;
    },
  };
}
