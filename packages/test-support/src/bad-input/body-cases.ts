import type { CaseFamily } from "./expectations.js";

/** One request the battery sends. */
export interface BadInputCase {
  family: CaseFamily;
  name: string;
  /** Appended to the route's path (GET cases). */
  query?: string;
  /** `content-type` to send; `undefined` sends none. */
  contentType?: string;
  body?: string;
}

/** Marks oversized strings, so an answer that echoes one is caught. */
export const OVERSIZED_MARK = "latchkey-oversized-";
/** Over the 1 MiB body limit. */
const OVERSIZED_BODY = 2 * 1024 * 1024;
/** Just under the body limit, so the value reaches validation and the handler. */
const OVERSIZED_STRING = 1_000_000;

const JSON_TYPE = "application/json";
const json = (family: CaseFamily, name: string, body: string): BadInputCase => ({
  family,
  name,
  contentType: JSON_TYPE,
  body,
});

type JsonKind = "string" | "number" | "boolean" | "array" | "object" | "null";
const kindOf = (value: unknown): JsonKind =>
  value === null ? "null" : Array.isArray(value) ? "array" : (typeof value as JsonKind);
const OTHER_VALUES: Record<Exclude<JsonKind, "null">, unknown> = {
  string: "x",
  number: 5,
  boolean: true,
  array: ["x"],
  object: { x: "y" },
};

/** Each field replaced by a value of every other JSON type. */
function wrongTypes(valid: Record<string, unknown>): BadInputCase[] {
  const out: BadInputCase[] = [];
  for (const [field, value] of Object.entries(valid)) {
    for (const [kind, other] of Object.entries(OTHER_VALUES)) {
      if (kind === kindOf(value)) continue;
      out.push(
        json("wrong type", `wrong type: ${field} as ${kind}`, JSON.stringify({ ...valid, [field]: other })),
      );
    }
  }
  return out;
}

/** A multipart body carrying the valid fields as form parts. */
function multipart(valid: Record<string, unknown>): string {
  const parts = Object.entries(valid).map(
    ([k, v]) =>
      `--b\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${typeof v === "string" ? v : JSON.stringify(v)}\r\n`,
  );
  return `${parts.join("")}--b--\r\n`;
}

/** Every body case for a route whose valid body is `valid`. */
export function bodyCases(valid: Record<string, unknown>): BadInputCase[] {
  const text = JSON.stringify(valid);
  const inner = text.slice(1, -1);
  const fields = Object.keys(valid);
  return [
    json("malformed JSON", "malformed JSON", text.slice(0, -1) + ","),
    json("JSON array", "JSON array", JSON.stringify([valid])),
    json("JSON null", "JSON null", "null"),
    json("JSON string", "JSON string", JSON.stringify(text)),
    json("JSON number", "JSON number", "5"),
    json("JSON boolean", "JSON boolean", "true"),
    json("empty object", "empty object", "{}"),
    ...fields.map((f) => {
      const { [f]: _, ...rest } = valid;
      return json("missing field", `missing field: ${f}`, JSON.stringify(rest));
    }),
    ...wrongTypes(valid),
    json(
      "extra fields",
      "extra fields",
      JSON.stringify({ ...valid, latchkeyUnknownField: "x", id: "forged-id" }),
    ),
    json(
      "prototype keys",
      "prototype keys",
      `{"__proto__":{"latchkeyPolluted":true},"constructor":{"prototype":{"latchkeyPolluted":true}}${inner ? `,${inner}` : ""}}`,
    ),
    json(
      "oversized body",
      "oversized body (2 MiB)",
      JSON.stringify({ ...valid, latchkeyPadding: "x".repeat(OVERSIZED_BODY) }),
    ),
    ...fields
      .filter((f) => typeof valid[f] === "string")
      .map((f) =>
        json(
          "oversized string",
          `oversized string: ${f}`,
          JSON.stringify({ ...valid, [f]: OVERSIZED_MARK.repeat(OVERSIZED_STRING / OVERSIZED_MARK.length) }),
        ),
      ),
    { family: "content type", name: "content type: text/plain", contentType: "text/plain", body: text },
    {
      family: "content type",
      name: "content type: multipart/form-data",
      contentType: "multipart/form-data; boundary=b",
      body: multipart(valid),
    },
    {
      family: "content type",
      name: "content type: application/xml",
      contentType: "application/xml",
      body: "<body/>",
    },
    { family: "no content type", name: "no content type", body: text },
    { family: "no body", name: "no body, no content type" },
    json("empty JSON body", "empty JSON body", ""),
  ];
}
