import { orderedModels, type SchemaProblem } from "@latchkey/core";
import type { Executor } from "./executor.js";
import { listTables } from "./introspect.js";

/**
 * Lists the tables and columns the schema needs that the database lacks (models with
 * `disableMigration` are not checked). Types are not compared: a column of another type still
 * holds the reference's encodings, as the reference's own check assumes.
 */
export async function findSchemaProblems(x: Executor): Promise<SchemaProblem[]> {
  const { schema } = x;
  const tables = await listTables(x);
  const problems: SchemaProblem[] = [];
  for (const model of orderedModels(schema)) {
    if (model.disableMigration) continue;
    const columns = tables.get(model.tableName);
    if (!columns) {
      problems.push({ table: model.tableName });
      continue;
    }
    for (const column of ["id", ...Object.values(model.fields).map((f) => f.fieldName)]) {
      if (!columns.has(column)) problems.push({ table: model.tableName, column });
    }
  }
  return problems;
}
