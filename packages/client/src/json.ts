// ISO 8601 timestamps as servers send them (`Date#toISOString`, or with an offset). The
// reference client turns every such string into a `Date`; doing the same keeps typed results
// (`createdAt: Date`) true, and code written against the reference client working.
const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,7})?(?:Z|[+-]\d{2}:\d{2})$/;

function revive(key: string, value: unknown): unknown {
  // A parsed `__proto__` key is an own property, harmless here, but a caller spreading or
  // merging the result could turn it into prototype pollution: drop it, as the reference does.
  if (key === "__proto__") return undefined;
  if (typeof value === "string" && ISO_DATE.test(value)) {
    const date = new Date(value);
    if (!Number.isNaN(date.getTime())) return date;
  }
  return value;
}

/** Parses a response body: `null` when empty, JSON (dates revived) when it is JSON, else the text. */
export function parseBody(text: string): unknown {
  if (text.trim() === "") return null;
  try {
    return JSON.parse(text, revive) as unknown;
  } catch {
    return text;
  }
}
