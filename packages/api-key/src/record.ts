import type { Row } from "@latchkey/core";
import type { ApiKeyRow, Permissions } from "./schema.js";

/** A key as the plugin handles it: the row with `metadata` parsed (it is JSON text in SQL). */
export type ApiKeyRecord = Omit<ApiKeyRow, "metadata"> & { metadata: unknown };

const DATE_FIELDS = ["createdAt", "updatedAt", "expiresAt", "lastRefillAt", "lastRequest"] as const;

/**
 * Metadata as stored → a value. The reference stores `JSON.stringify(value)` (so "null" for
 * none); rows written by older versions hold it stringified twice, which is unwrapped too.
 */
export function parseMetadata(raw: unknown): unknown {
  let value = raw;
  for (let depth = 0; depth < 2 && typeof value === "string"; depth++) {
    try {
      value = JSON.parse(value);
    } catch {
      return null;
    }
  }
  return value ?? null;
}

/** A database row as a record. */
export function fromRow(row: Row): ApiKeyRecord {
  return { ...(row as unknown as ApiKeyRow), metadata: parseMetadata(row.metadata) };
}

/** The columns to write for (part of) a record: metadata back to JSON text. */
export function toColumns(values: Partial<ApiKeyRecord>): Row {
  const out: Row = { ...values };
  if ("metadata" in values) out.metadata = JSON.stringify(values.metadata ?? null);
  return out;
}

/** A record as the JSON the reference keeps in secondary storage (dates as ISO strings). */
export function serializeRecord(record: ApiKeyRecord): string {
  const out: Record<string, unknown> = { ...record };
  for (const field of DATE_FIELDS) {
    const value = record[field];
    out[field] = value ? new Date(value).toISOString() : null;
  }
  return JSON.stringify(out);
}

/** A secondary-storage value as a record; anything unreadable is null. */
export function deserializeRecord(raw: unknown): ApiKeyRecord | null {
  let parsed: Record<string, unknown>;
  try {
    parsed = (typeof raw === "string" ? JSON.parse(raw) : raw) as Record<string, unknown>;
  } catch {
    return null;
  }
  if (!parsed || typeof parsed !== "object" || typeof parsed.id !== "string") return null;
  const out: Record<string, unknown> = { ...parsed };
  for (const field of DATE_FIELDS) {
    const value = parsed[field];
    out[field] = value ? new Date(value as string) : null;
  }
  out.metadata = parseMetadata(parsed.metadata);
  return out as ApiKeyRecord;
}

/** Stored permissions → object, or null when none or unreadable. */
export function parsePermissions(raw: unknown): Permissions | null {
  if (!raw || typeof raw !== "string") return null;
  try {
    const value: unknown = JSON.parse(raw);
    return value && typeof value === "object" ? (value as Permissions) : null;
  } catch {
    return null;
  }
}

/** A key as the routes answer it: no `key`, `metadata` and `permissions` as objects. */
export function toPublic(record: ApiKeyRecord): Omit<ApiKeyRecord, "key" | "permissions"> & { permissions: Permissions | null } {
  const { key: _key, ...rest } = record;
  return { ...rest, metadata: record.metadata ?? null, permissions: parsePermissions(record.permissions) };
}
