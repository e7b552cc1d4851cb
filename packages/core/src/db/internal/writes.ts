import type { DatabaseHookContext } from "../database-hooks.js";
import type { Adapter, Row, Where } from "../adapter.js";
import type { ResolvedSchema } from "../field.js";
import { runAfter, runBefore, type DatabaseHooks } from "../database-hooks.js";
import { prepareStoredRow, withOnUpdate as withFieldOnUpdate } from "./row-prep.js";
import type { ValidateUserInfo } from "../../security/validate-user-info.js";
import type { StoreRouting } from "../storage-options.js";

/** What the internal adapter needs from the context. */
export interface InternalAdapterDeps {
  adapter: Adapter;
  schema: ResolvedSchema;
  hooks: DatabaseHooks[];
  generateId: (args: { model: string; size?: number }) => string | false;
  sessionExpiresIn: number;
  /** `user.validateUserInfo`, run before every user is created. */
  validateUserInfo?: ValidateUserInfo;
  /** Secondary storage and which stores hold sessions and verification values. */
  stores?: StoreRouting;
}

/**
 * Writes with ids, field defaults, `onUpdate` values and database hooks applied, so adapters
 * only store and load. `ctx` is what the hooks receive (the endpoint context, or null).
 */
export function createWrites(deps: InternalAdapterDeps) {
  const { adapter, schema, hooks } = deps;
  const hooked = (model: string, op: "create" | "update" | "delete"): boolean => hooks.some((h) => h[model]?.[op]);

  const withDefaults = (model: string, data: Row): Row => prepareStoredRow(schema, model, deps.generateId, data);
  const withOnUpdate = (model: string, data: Row): Row => withFieldOnUpdate(schema, model, data);

  return {
    /** Inserts one row; null when a before hook vetoed it. */
    async create<T>(model: string, data: Row, ctx?: DatabaseHookContext): Promise<T | null> {
      const prepared = await runBefore(hooks, model, "create", withDefaults(model, data), ctx ?? null);
      if (!prepared) return null;
      const row = await adapter.create({ model, data: prepared });
      await runAfter(hooks, model, "create", row, ctx ?? null);
      return row as T;
    },

    /** Updates one row; null when nothing matched or a before hook vetoed it. */
    async update<T>(model: string, where: Where[], data: Row, ctx?: DatabaseHookContext): Promise<T | null> {
      const prepared = await runBefore(hooks, model, "update", withOnUpdate(model, data), ctx ?? null);
      if (!prepared) return null;
      const row = await adapter.update({ model, where, update: prepared });
      if (row) await runAfter(hooks, model, "update", row, ctx ?? null);
      return row as T | null;
    },

    /** Updates every matching row (hooks run per row when any are configured). */
    async updateMany(model: string, where: Where[], data: Row, ctx?: DatabaseHookContext): Promise<number> {
      if (!hooked(model, "update")) return adapter.updateMany({ model, where, update: withOnUpdate(model, data) });
      const rows = await adapter.findMany({ model, where });
      let count = 0;
      for (const row of rows) {
        const prepared = await runBefore(hooks, model, "update", withOnUpdate(model, data), ctx ?? null);
        if (!prepared) continue;
        const updated = await adapter.update({ model, where: [{ field: "id", value: String(row.id) }], update: prepared });
        if (updated) {
          count++;
          await runAfter(hooks, model, "update", updated, ctx ?? null);
        }
      }
      return count;
    },

    /** Deletes one row (hooks see it first and may veto). */
    async delete(model: string, where: Where[], ctx?: DatabaseHookContext): Promise<void> {
      if (!hooked(model, "delete")) return adapter.delete({ model, where });
      const row = await adapter.findOne({ model, where });
      if (!row || !(await runBefore(hooks, model, "delete", row, ctx ?? null))) return;
      await adapter.delete({ model, where: [{ field: "id", value: String(row.id) }] });
      await runAfter(hooks, model, "delete", row, ctx ?? null);
    },

    /** Deletes every matching row (hooks run per row when any are configured). */
    async deleteMany(model: string, where: Where[], ctx?: DatabaseHookContext): Promise<number> {
      if (!hooked(model, "delete")) return adapter.deleteMany({ model, where });
      const rows = await adapter.findMany({ model, where });
      let count = 0;
      for (const row of rows) {
        if (!(await runBefore(hooks, model, "delete", row, ctx ?? null))) continue;
        await adapter.delete({ model, where: [{ field: "id", value: String(row.id) }] });
        await runAfter(hooks, model, "delete", row, ctx ?? null);
        count++;
      }
      return count;
    },
  };
}

export type Writes = ReturnType<typeof createWrites>;
