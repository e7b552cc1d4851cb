import type { EndpointContext, Where } from "@latchkey/core";
import { normalizedUserCode } from "./codes.js";
import type { DeviceCodeRow } from "./schema.js";

const MODEL = "deviceCode";

/** Driver codes and messages that mean "a unique index refused the row" (SQLite, PostgreSQL, MySQL/MariaDB, SQL Server, MongoDB). */
const UNIQUE_VIOLATION_CODES = new Set(["SQLITE_CONSTRAINT_UNIQUE", "23505", "ER_DUP_ENTRY", "1062", "2067", "2601", "2627", "11000", "P2002"]);
const UNIQUE_VIOLATION_TEXT = /unique(?: key)? constraint|duplicate (?:entry|key)|e11000/i;

/** Whether `error` is a unique-index violation, whatever the driver. */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const e = error as { code?: unknown; errno?: unknown; errcode?: unknown; number?: unknown; message?: unknown; cause?: unknown };
  if ([e.code, e.errno, e.errcode, e.number].some((id) => id !== undefined && UNIQUE_VIOLATION_CODES.has(String(id)))) return true;
  if (typeof e.message === "string" && UNIQUE_VIOLATION_TEXT.test(e.message)) return true;
  return e.cause !== undefined && e.cause !== error && isUniqueViolation(e.cause);
}

const byId = (id: string): Where => ({ field: "id", value: id });

/** Inserts a row; a unique-index violation returns `false` so the caller can retry with new codes. */
export async function insertDeviceCode(ctx: EndpointContext, data: Omit<DeviceCodeRow, "id">): Promise<boolean> {
  try {
    await ctx.context.internalAdapter.create(MODEL, data, ctx);
    return true;
  } catch (error) {
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}

/** The row of a device code, or null. */
export const findByDeviceCode = (ctx: EndpointContext, deviceCode: string): Promise<DeviceCodeRow | null> =>
  exact(ctx, "deviceCode", deviceCode);

/**
 * The row of a user code as typed: the exact value first, then (default alphabet only) without
 * separators and upper-cased. A hit must equal the value byte for byte, so a database with a
 * case-insensitive collation does not widen the match.
 */
export async function findByUserCode(ctx: EndpointContext, typed: string): Promise<DeviceCodeRow | null> {
  const found = await exact(ctx, "userCode", typed);
  if (found) return found;
  const normalized = normalizedUserCode(typed);
  return normalized === undefined ? null : exact(ctx, "userCode", normalized);
}

async function exact(ctx: EndpointContext, field: "deviceCode" | "userCode", value: string): Promise<DeviceCodeRow | null> {
  const row = await ctx.context.adapter.findOne<DeviceCodeRow>({ model: MODEL, where: [{ field, value }] });
  return row && row[field] === value ? row : null;
}

/** Binds a pending, unclaimed code to `userId` in one conditional write; true when this call claimed it. */
export async function claimDeviceCode(ctx: EndpointContext, id: string, userId: string): Promise<boolean> {
  const updated = await ctx.context.adapter.updateMany({
    model: MODEL,
    where: [byId(id), { field: "status", value: "pending" }, { field: "userId", value: null }],
    update: { userId },
  });
  return updated > 0;
}

/**
 * Moves a pending code claimed by `userId` to `status` in one conditional write; false when
 * another request decided it first.
 */
export async function decideDeviceCode(ctx: EndpointContext, id: string, userId: string, status: "approved" | "denied"): Promise<boolean> {
  const updated = await ctx.context.adapter.updateMany({
    model: MODEL,
    where: [byId(id), { field: "status", value: "pending" }, { field: "userId", value: userId }],
    update: { status },
  });
  return updated > 0;
}

/** Records a poll: `lastPolledAt` now, and `pollingInterval` raised by `slowDownMs` when given. */
export async function recordPoll(ctx: EndpointContext, row: DeviceCodeRow, slowDownMs = 0): Promise<void> {
  if (slowDownMs > 0) {
    await ctx.context.adapter.incrementOne({ model: MODEL, where: [byId(row.id)], increment: { pollingInterval: slowDownMs } });
    return;
  }
  await ctx.context.adapter.updateMany({ model: MODEL, where: [byId(row.id)], update: { lastPolledAt: new Date() } });
}

/** Deletes a row (expired, or denied and now reported). */
export async function deleteDeviceCode(ctx: EndpointContext, id: string): Promise<void> {
  await ctx.context.adapter.deleteMany({ model: MODEL, where: [byId(id)] });
}

/**
 * Takes an approved row in one atomic delete, guarded by `where` as well; of concurrent
 * callers exactly one gets it, the rest `null`.
 */
export const consumeApproved = (ctx: EndpointContext, id: string, where: Where[]): Promise<DeviceCodeRow | null> =>
  ctx.context.adapter.consumeOne<DeviceCodeRow>({ model: MODEL, where: [byId(id), { field: "status", value: "approved" }, ...where] });
