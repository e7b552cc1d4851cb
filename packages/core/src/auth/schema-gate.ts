import type { AuthContext } from "../context.js";
import { internalError } from "./dispatch.js";

/**
 * The first-request schema check (`advanced.database.validateSchema`, default on). While the
 * database lacks a table or column every auth request fails, so a half-migrated database
 * cannot serve a subset of routes. A clean result is kept; a failure to reach the database
 * is not, so the next request asks again.
 */
export function createSchemaGate(auth: AuthContext): (() => Promise<Response | null>) & { reset(): void } {
  const enabled = auth.options.advanced?.database?.validateSchema !== false;
  let clean = !enabled || !auth.adapter.findSchemaProblems;
  let pending: Promise<string | null> | undefined;
  if (!auth.adapter.findSchemaProblems) {
    const note = `The ${auth.adapter.id} adapter cannot validate the schema.`;
    if (auth.options.advanced?.database?.validateSchema === true) auth.logger.warn(note);
    else auth.logger.debug(note);
  }
  const check = async (): Promise<string | null> => {
    const problems = await auth.adapter.findSchemaProblems!();
    if (!problems.length) return null;
    const tables = problems.filter((p) => !p.column).map((p) => p.table);
    const columns = problems.filter((p) => p.column).map((p) => `${p.table}.${p.column}`);
    return `Database schema mismatch. Missing tables: ${tables.join(", ") || "none"}. Missing columns: ${columns.join(", ") || "none"}.`;
  };
  const gate = async (): Promise<Response | null> => {
    if (clean) return null;
    pending ??= check();
    try {
      const mismatch = await pending;
      if (!mismatch) {
        clean = true;
        return null;
      }
      auth.logger.error(mismatch);
      pending = undefined;
      return internalError();
    } catch (error) {
      pending = undefined;
      auth.logger.error("Could not check the database schema", error);
      return internalError();
    }
  };
  return Object.assign(gate, {
    reset(): void {
      clean = !enabled || !auth.adapter.findSchemaProblems;
      pending = undefined;
    },
  });
}
