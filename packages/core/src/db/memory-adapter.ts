import type { Adapter, AdapterFactory, Row, Where, WhereOperator } from "./adapter.js";
import type { ResolvedField, ResolvedModel, ResolvedSchema } from "./field.js";
import { BetterAuthError } from "../errors/api-error.js";
import { assertDelta, comparableWhere, assertPaging, assertStorable } from "./field-value.js";

/** Rows of one table, keyed by physical column names. */
type Table = Row[];
/** One change a transaction made, kept so a rollback can undo it. */
interface Change {
  table: Table;
  before: Row | null;
  after: Row | null;
}

/** Arguments of one adapter operation. */
type Args<K extends keyof Adapter> = Adapter[K] extends ((args: infer A) => unknown) | undefined ? A : never;

const ID_FIELD: ResolvedField = { type: "string", required: true, fieldName: "id" };

function fieldOf(model: ResolvedModel, name: string): ResolvedField {
  const field = name === "id" ? ID_FIELD : model.fields[name];
  if (!field) throw new BetterAuthError(`Field "${name}" is not part of model "${model.model}".`);
  return field;
}

/** Deep-copies structured values so callers never share objects with the store. */
function copy(value: unknown): unknown {
  return value !== null && typeof value === "object" && !(value instanceof Date)
    ? structuredClone(value)
    : value;
}

/** Brings a caller's value to the field's JavaScript type (dates as `Date`). */
function normalize(field: ResolvedField, value: unknown): unknown {
  if (field.type === "date" && typeof value === "string") return new Date(value);
  if (field.type === "boolean" && (value === "true" || value === "false")) return value === "true";
  const numeric = typeof value === "string" && value.trim() !== "" && !Number.isNaN(Number(value));
  if (field.type === "number" && (numeric || typeof value === "bigint")) return Number(value);
  return copy(value);
}

function same(a: unknown, b: unknown): boolean {
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  if (a !== null && b !== null && typeof a === "object" && typeof b === "object") {
    return JSON.stringify(a) === JSON.stringify(b);
  }
  return a === b;
}

/** Orders two non-null cells; dates by time, everything else by `<` (code-point order for strings). */
function compare(a: unknown, b: unknown): number {
  const x = a instanceof Date ? a.getTime() : a;
  const y = b instanceof Date ? b.getTime() : b;
  if (typeof x === "number" && typeof y === "number") return x - y;
  if (typeof x === "boolean" && typeof y === "boolean") return Number(x) - Number(y);
  const [s, t] = [String(x), String(y)];
  return s < t ? -1 : s > t ? 1 : 0;
}

type Test = (cell: unknown, value: unknown, list: unknown[]) => boolean;
const OPERATORS: Record<WhereOperator, Test> = {
  eq: (cell, value) => same(cell, value),
  ne: (cell, value) => !same(cell, value),
  lt: (cell, value) => compare(cell, value) < 0,
  lte: (cell, value) => compare(cell, value) <= 0,
  gt: (cell, value) => compare(cell, value) > 0,
  gte: (cell, value) => compare(cell, value) >= 0,
  in: (cell, _value, list) => list.some((v) => same(cell, v)),
  not_in: (cell, _value, list) => !list.some((v) => same(cell, v)),
  // A list field "contains" an element; a string contains a substring (matched literally).
  contains: (cell, value) =>
    Array.isArray(cell) ? cell.some((v) => same(v, value)) : String(cell).includes(String(value)),
  starts_with: (cell, value) => String(cell).startsWith(String(value)),
  ends_with: (cell, value) => String(cell).endsWith(String(value)),
};

/**
 * Evaluates one clause with SQL semantics, so tests on memory behave like production: a NULL
 * cell matches only `eq null` / `ne null`, never a comparison.
 */
function holds(cell: unknown, clause: Where, field: ResolvedField): boolean {
  const op = clause.operator ?? "eq";
  const value = Array.isArray(clause.value)
    ? clause.value.map((v: unknown) => normalize(field, v))
    : normalize(field, clause.value);
  if (value === null && (op === "eq" || op === "ne")) return op === "eq" ? cell == null : cell != null;
  if (cell == null || value === null) return false;
  return OPERATORS[op](cell, value, Array.isArray(value) ? value : [value]);
}

/**
 * A process-memory adapter for tests and edge demos. Tables live in `store` (created on first
 * use), keyed by physical table name, rows keyed by physical column names. Unique fields and
 * unique table indexes are enforced; foreign keys are not. Every operation runs synchronously
 * inside one call, so `consumeOne` and `incrementOne` are atomic within the process.
 */
export function memoryAdapter(store: Record<string, Row[]> = {}): AdapterFactory {
  return ({ schema }) => build(schema, store, null);
}

function build(schema: ResolvedSchema, store: Record<string, Table>, journal: Change[] | null): Adapter {
  const modelOf = (name: string): ResolvedModel => {
    const model = schema[name];
    if (!model) throw new BetterAuthError(`Model "${name}" is not in the schema.`);
    return model;
  };
  const tableOf = (model: ResolvedModel): Table => (store[model.tableName] ??= []);

  const record = (table: Table, before: Row | null, after: Row | null): void => {
    journal?.push({ table, before, after });
  };

  /** Resolves the clauses' fields once (an unknown field throws even on an empty table). */
  const matcher = (model: ResolvedModel, where: Where[] = []): ((row: Row) => boolean) => {
    const clauses = where.map((c) => {
      const field = fieldOf(model, c.field);
      // Checked here, once per clause, so a bad value is refused even on an empty table.
      return { c, checked: comparableWhere(model.model, c, field), field };
    });
    const ands = clauses.filter(({ c }) => c.connector !== "OR");
    const ors = clauses.filter(({ c }) => c.connector === "OR");
    const test =
      (row: Row) =>
      ({ checked, field }: { checked: Where | boolean; field: ResolvedField }) =>
        typeof checked === "boolean" ? checked : holds(row[field.fieldName], checked, field);
    // AND clauses must all hold; when OR clauses exist, at least one of them must hold too.
    return (row) => ands.every(test(row)) && (ors.length === 0 || ors.some(test(row)));
  };
  const first = (model: ResolvedModel, where: Where[]): Row | undefined =>
    tableOf(model).find(matcher(model, where));

  const toStored = (model: ResolvedModel, data: Row): Row => {
    const out: Row = {};
    for (const [key, value] of Object.entries(data)) {
      // Keys the schema does not know are dropped, as the reference's adapter factory does.
      const field = key === "id" ? ID_FIELD : model.fields[key];
      if (field && value !== undefined) {
        assertStorable(model.model, key, field, value);
        out[field.fieldName] = normalize(field, value);
      }
    }
    return out;
  };

  const toOutput = <T extends Row>(model: ResolvedModel, row: Row, select?: string[]): T => {
    const names = select?.length
      ? ["id", ...select.filter((f) => f !== "id")]
      : ["id", ...Object.keys(model.fields)];
    const out: Row = {};
    for (const name of names) out[name] = copy(row[fieldOf(model, name).fieldName] ?? null);
    return out as T;
  };

  const assertUnique = (model: ResolvedModel, table: Table, candidate: Row, replacing: Row | null): void => {
    const groups: ResolvedField[][] = [[ID_FIELD]];
    for (const field of Object.values(model.fields)) if (field.unique) groups.push([field]);
    for (const index of model.indexes ?? []) {
      if (index.unique) groups.push(index.fields.map((f) => fieldOf(model, f)));
    }
    for (const group of groups) {
      const values = group.map((f) => candidate[f.fieldName]);
      if (values.some((v) => v == null)) continue;
      const clash = table.some(
        (row) => row !== replacing && group.every((f, i) => same(row[f.fieldName], values[i])),
      );
      if (clash) {
        const columns = group.map((f) => f.fieldName).join(", ");
        throw new BetterAuthError(`Unique constraint failed: ${model.tableName} (${columns})`);
      }
    }
  };

  const replace = (model: ResolvedModel, row: Row, next: Row): Row => {
    const table = tableOf(model);
    assertUnique(model, table, next, row);
    table[table.indexOf(row)] = next;
    record(table, row, next);
    return next;
  };

  const remove = (model: ResolvedModel, row: Row): void => {
    const table = tableOf(model);
    table.splice(table.indexOf(row), 1);
    record(table, row, null);
  };

  const select = (model: ResolvedModel, where?: Where[]): Row[] =>
    tableOf(model).filter(matcher(model, where));

  const adapter: Adapter = {
    id: "memory",
    async create<T extends Row>({ model: name, data, select: fields }: Args<"create">): Promise<T> {
      const model = modelOf(name);
      const table = tableOf(model);
      const row = toStored(model, data);
      assertUnique(model, table, row, null);
      table.push(row);
      record(table, null, row);
      return toOutput<T>(model, row, fields);
    },
    async findOne<T extends Row>({ model: name, where, select: fields }: Args<"findOne">): Promise<T | null> {
      const model = modelOf(name);
      const row = first(model, where);
      return row ? toOutput<T>(model, row, fields) : null;
    },
    async findMany<T extends Row>(args: Args<"findMany">): Promise<T[]> {
      const { model: name, where, limit, offset, sortBy, select: fields } = args;
      assertPaging(limit, offset);
      const model = modelOf(name);
      let rows = select(model, where);
      if (sortBy) {
        const column = fieldOf(model, sortBy.field).fieldName;
        const sign = sortBy.direction === "desc" ? -1 : 1;
        // NULLs sort first ascending, as SQLite and MySQL do.
        rows = [...rows].sort((a, b) => {
          const [x, y] = [a[column], b[column]];
          if (x == null || y == null) return sign * ((x == null ? 0 : 1) - (y == null ? 0 : 1));
          return sign * compare(x, y);
        });
      }
      const start = offset ?? 0;
      rows = rows.slice(start, limit === undefined ? undefined : start + limit);
      return rows.map((row) => toOutput<T>(model, row, fields));
    },
    async count({ model: name, where }) {
      return select(modelOf(name), where).length;
    },
    async update<T extends Row>({ model: name, where, update }: Args<"update">): Promise<T | null> {
      if (where.length === 0) return null;
      const model = modelOf(name);
      const row = first(model, where);
      if (!row) return null;
      return toOutput<T>(model, replace(model, row, { ...row, ...toStored(model, update) }));
    },
    async updateMany({ model: name, where, update }) {
      const model = modelOf(name);
      const patch = toStored(model, update);
      const rows = select(model, where);
      for (const row of rows) replace(model, row, { ...row, ...(copy(patch) as Row) });
      return rows.length;
    },
    async delete({ model: name, where }) {
      // An empty `where` deletes nothing here, unlike `deleteMany`.
      if (where.length === 0) return;
      const model = modelOf(name);
      for (const row of select(model, where)) remove(model, row);
    },
    async deleteMany({ model: name, where }) {
      const model = modelOf(name);
      const rows = select(model, where);
      for (const row of rows) remove(model, row);
      return rows.length;
    },
    async findSessionWithUser<S extends Row, U extends Row>(token: string) {
      const sessionModel = modelOf("session");
      const userModel = modelOf("user");
      const session = first(sessionModel, [{ field: "token", value: token }]);
      const userId = session?.[fieldOf(sessionModel, "userId").fieldName];
      const user = userId == null ? undefined : first(userModel, [{ field: "id", value: userId as string }]);
      if (!session || !user) return null;
      return { session: toOutput<S>(sessionModel, session), user: toOutput<U>(userModel, user) };
    },
    async consumeOne<T extends Row>({ model: name, where }: Args<"consumeOne">): Promise<T | null> {
      const model = modelOf(name);
      // Find and remove happen in one synchronous step: no other caller can see the row between.
      const row = first(model, where);
      if (!row) return null;
      remove(model, row);
      return toOutput<T>(model, row);
    },
    async incrementOne<T extends Row>(args: Args<"incrementOne">): Promise<T | null> {
      const { model: name, where, increment, set } = args;
      if (Object.keys(increment).length === 0 && Object.keys(set ?? {}).length === 0) {
        throw new BetterAuthError("incrementOne requires a non-empty `increment` or `set`; both were empty.");
      }
      const model = modelOf(name);
      for (const [key, delta] of Object.entries(increment)) assertDelta(model.model, key, delta);
      const row = first(model, where);
      if (!row) return null;
      const next: Row = { ...row, ...toStored(model, set ?? {}) };
      for (const [key, delta] of Object.entries(increment)) {
        const column = fieldOf(model, key).fieldName;
        const current = row[column];
        // NULL + delta stays NULL, as in SQL.
        next[column] = typeof current === "number" ? current + delta : null;
      }
      return toOutput<T>(model, replace(model, row, next));
    },
    async transaction(fn) {
      // Nested use joins the outer transaction, as the SQL adapters do.
      if (journal) return fn(adapter);
      const changes: Change[] = [];
      try {
        return await fn(build(schema, store, changes));
      } catch (error) {
        rollback(changes);
        throw error;
      }
    },
  };
  return adapter;
}

/** Undoes a transaction's changes, newest first; rows others changed meanwhile are kept. */
function rollback(changes: Change[]): void {
  for (const { table, before, after } of changes.reverse()) {
    const at = after ? table.indexOf(after) : -1;
    if (before && at >= 0) table[at] = before;
    else if (at >= 0) table.splice(at, 1);
    else if (before && !table.some((row) => row.id === before.id)) table.push(before);
  }
}
