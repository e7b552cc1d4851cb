import { BetterAuthError, type ResolvedField, type ResolvedModel } from "@latchkey/core";
import { columnType } from "./column-type.js";

// MySQL outside strict mode cuts a string that is too long for its column to fit and only
// warns; in strict mode (MariaDB's default) it refuses with its own error. Checking the length
// first makes both a clean `BetterAuthError` and never stores a shortened value. The limits
// are those of the column types `createTables` writes (column-type.ts).

/** A text column's capacity: characters for `varchar(n)`, bytes for `text`. */
interface Capacity {
  chars?: number;
  bytes?: number;
}

const TEXT_BYTES = 65_535;
const cache = new WeakMap<ResolvedModel, Map<ResolvedField, Capacity | null>>();

function capacityOf(model: ResolvedModel, field: ResolvedField, isId: boolean): Capacity | null {
  let known = cache.get(model);
  if (!known) cache.set(model, (known = new Map()));
  let capacity = known.get(field);
  if (capacity === undefined) {
    const type = columnType(model, field.fieldName, isId ? null : field, "mysql");
    const varchar = /^varchar\((\d+)\)$/.exec(type);
    capacity = varchar ? { chars: Number(varchar[1]) } : type === "text" ? { bytes: TEXT_BYTES } : null;
    known.set(field, capacity);
  }
  return capacity;
}

/** UTF-8 length of `text` (utf8mb4 stores each code point in as many bytes). */
function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff) {
      // A surrogate pair is one 4-byte code point (lone surrogates were refused before).
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** Code points of `text`: what `varchar(n)` counts under utf8mb4. */
function codePoints(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) i++;
    count++;
  }
  return count;
}

/** Throws a `BetterAuthError` when `text` would not fit `model.name`'s MySQL column intact. */
export function assertFitsMysql(
  model: ResolvedModel,
  name: string,
  field: ResolvedField,
  text: string,
): void {
  const capacity = capacityOf(model, field, name === "id");
  if (!capacity) return;
  // Cheap bounds first: a UTF-16 unit is at most 3 UTF-8 bytes and at most one code point.
  const fits =
    capacity.chars !== undefined
      ? text.length <= capacity.chars || codePoints(text) <= capacity.chars
      : text.length * 3 <= TEXT_BYTES || utf8Length(text) <= TEXT_BYTES;
  if (!fits) {
    const limit = capacity.chars !== undefined ? `${capacity.chars} characters` : `${TEXT_BYTES} bytes`;
    throw new BetterAuthError(
      `Cannot store a string longer than ${limit} in "${model.model}.${name}" on MySQL.`,
    );
  }
}
