import { comparableWhere, type ResolvedModel, type Row } from "@latchkey/core";
import { decodeValue, encodeValue } from "./encode.js";
import type { Executor } from "./executor.js";
import { fieldOf, modelOf, outputFields } from "./model.js";
import { compile, id, join, sql, table } from "./sql.js";

/** One selected column: the logical field it decodes to and its alias in the joined row. */
interface Column {
  name: string;
  alias: string;
}

/** Columns of `m` under table alias `table`, aliased `<table><index>` (short, so no dialect truncates them). */
function columnsOf(m: ResolvedModel, table: string): Column[] {
  return outputFields(m).map((name, i) => ({ name, alias: `${table}${i}` }));
}

function decode<T extends Row>(m: ResolvedModel, columns: Column[], row: Row): T {
  const out: Row = {};
  for (const { name, alias } of columns) out[name] = decodeValue(fieldOf(m, name), row[alias]);
  return out as T;
}

/**
 * The adapter's `findSessionWithUser`: the session with a token and its user in one query,
 * `SELECT <every session and user column> FROM session JOIN user ON user.id = session.userId
 * WHERE session.token = ? LIMIT 1`. The SQL depends only on the schema and the dialect, so it
 * is compiled once and then sent as is with the token as its only parameter: this read runs on
 * every authenticated request, and building the query each time cost as much as running it.
 * On a raw `pg` Pool it is a named prepared statement (see runners/pg.ts). Rows decode
 * exactly as `findOne` decodes each table's row.
 */
export function sessionWithUser(x: Executor) {
  let compiled:
    { sql: string; session: Column[]; user: Column[]; token: ReturnType<typeof fieldOf> } | undefined;
  const prepare = (): NonNullable<typeof compiled> => {
    const session = modelOf(x.schema, "session");
    const user = modelOf(x.schema, "user");
    const s = columnsOf(session, "s");
    const u = columnsOf(user, "u");
    const select = (m: ResolvedModel, tableAlias: string, columns: Column[]) =>
      columns.map(({ name, alias }) => sql`${id(tableAlias, fieldOf(m, name).fieldName)} AS ${id(alias)}`);
    const token = fieldOf(session, "token");
    const query = sql`SELECT ${join([...select(session, "s", s), ...select(user, "u", u)])} FROM ${table(session.tableName)} AS ${id("s")} INNER JOIN ${table(user.tableName)} AS ${id("u")} ON ${id("u", "id")} = ${id("s", fieldOf(session, "userId").fieldName)} WHERE ${id("s", token.fieldName)} = ${""} LIMIT 1`;
    const text = compile(query, x.type).sql;
    x.prepare?.(text);
    return { sql: text, session: s, user: u, token };
  };

  return async <S extends Row, U extends Row>(token: string): Promise<{ session: S; user: U } | null> => {
    compiled ??= prepare();
    // A token no column can hold (a NUL in a Bearer value) finds no session.
    if (comparableWhere("session", { field: "token", value: token }, compiled.token) === false) return null;
    const session = modelOf(x.schema, "session");
    const result = await x.db().run({ sql: compiled.sql, parameters: [encodeValue(compiled.token, token, x.type)] });
    const [row] = result.rows;
    if (!row) return null;
    return {
      session: decode<S>(session, compiled.session, row),
      user: decode<U>(modelOf(x.schema, "user"), compiled.user, row),
    };
  };
}
