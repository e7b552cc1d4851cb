/**
 * The little CBOR (RFC 8949) a software authenticator writes: unsigned and negative integers,
 * byte strings, text strings and maps, in definite lengths. Enough for a COSE key (RFC 9052)
 * and a `none` attestation object.
 */
export type CborValue = number | string | Uint8Array | CborMap | CborRecord;
/** A CBOR map with any keys. */
export type CborMap = Map<CborValue, CborValue>;
/** A CBOR map with text keys. */
export interface CborRecord {
  [key: string]: CborValue;
}

/** The head of a data item: major type and argument (RFC 8949 §3). */
function head(major: number, argument: number): number[] {
  const m = major << 5;
  if (argument < 24) return [m | argument];
  if (argument < 0x100) return [m | 24, argument];
  if (argument < 0x10000) return [m | 25, argument >> 8, argument & 0xff];
  return [m | 26, (argument >>> 24) & 0xff, (argument >>> 16) & 0xff, (argument >>> 8) & 0xff, argument & 0xff];
}

/** Encodes one value; object keys are text strings, `Map` keys anything encodable. */
export function encodeCbor(value: CborValue): Uint8Array {
  const out: number[] = [];
  const write = (v: CborValue): void => {
    if (typeof v === "number") {
      out.push(...(v >= 0 ? head(0, v) : head(1, -1 - v)));
    } else if (typeof v === "string") {
      const bytes = new TextEncoder().encode(v);
      out.push(...head(3, bytes.length), ...bytes);
    } else if (v instanceof Uint8Array) {
      out.push(...head(2, v.length), ...v);
    } else {
      const entries = v instanceof Map ? [...v.entries()] : Object.entries(v);
      out.push(...head(5, entries.length));
      for (const [key, item] of entries) {
        write(key);
        write(item);
      }
    }
  };
  write(value);
  return Uint8Array.from(out);
}
