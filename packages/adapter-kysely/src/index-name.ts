/** PostgreSQL's identifier limit; the reference keeps every generated index name within it. */
const MAX_BYTES = 63;
const encoder = new TextEncoder();
const byteLength = (text: string): number => encoder.encode(text).length;

/** 32-bit FNV-1a over UTF-16 code units, as 8 hex digits (the reference's suffix for long names). */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, "0");
}

/** Keeps whole characters of `text` up to `max` UTF-8 bytes. */
function truncate(text: string, max: number): string {
  let out = "";
  for (const char of text) {
    if (byteLength(out + char) > max) break;
    out += char;
  }
  return out;
}

/**
 * The reference's index name: `<table>_<col>[_<col>…]_idx` (or `_uidx` when unique); a name over
 * 63 UTF-8 bytes is cut and suffixed with a hash of the full name so it stays stable and unique.
 */
export function indexName(table: string, columns: string[], unique: boolean, name?: string): string {
  if (name !== undefined) return name;
  const kind = unique ? "uidx" : "idx";
  const full = `${table}_${columns.join("_")}_${kind}`;
  if (byteLength(full) <= MAX_BYTES) return full;
  const suffix = `_${fnv1a(full)}_${kind}`;
  return truncate(full.slice(0, -kind.length - 1), MAX_BYTES - byteLength(suffix)) + suffix;
}
