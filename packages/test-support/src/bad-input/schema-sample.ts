/** The parts of a valibot schema or action the sampler reads (valibot's own objects fit it). */
interface SchemaLike {
  type?: string;
  kind?: string;
  entries?: Record<string, SchemaLike>;
  wrapped?: SchemaLike;
  item?: SchemaLike;
  options?: readonly unknown[];
  literal?: unknown;
  requirement?: unknown;
  pipe?: readonly SchemaLike[];
  getter?: (input: unknown) => SchemaLike;
}

const OBJECT_TYPES = new Set(["object", "loose_object", "strict_object", "object_with_rest"]);
const WRAPPER_TYPES = new Set([
  "optional",
  "exact_optional",
  "nullable",
  "nullish",
  "undefinedable",
  "non_optional",
  "non_nullable",
  "non_nullish",
]);

const isSchema = (value: unknown): value is SchemaLike =>
  typeof value === "object" && value !== null && typeof (value as SchemaLike).type === "string";

/** The requirement of the first pipe action of `type`, if the schema has one. */
function action(schema: SchemaLike, type: string): unknown {
  return schema.pipe?.find((step) => step.kind !== "schema" && step.type === type)?.requirement;
}

function sampleString(schema: SchemaLike): string {
  if (schema.pipe?.some((step) => step.type === "email")) return "ada@example.com";
  if (schema.pipe?.some((step) => step.type === "url")) return "http://localhost:3000/x";
  const min = action(schema, "min_length");
  return typeof min === "number" && min > 1 ? "x".repeat(min) : "x";
}

/**
 * A plausible value for a valibot schema: the right JSON type, shaped by the checks the
 * battery can read (email, url, minimum length or value). Used only to learn a body's fields
 * and their types, never as proof that a body is valid.
 */
export function sampleValue(schema: unknown, depth = 0): unknown {
  if (!isSchema(schema) || depth > 6) return "x";
  const type = schema.type!;
  if (OBJECT_TYPES.has(type)) return sampleObject(schema, depth);
  if (WRAPPER_TYPES.has(type)) return sampleValue(schema.wrapped, depth + 1);
  switch (type) {
    case "string":
      return sampleString(schema);
    case "number": {
      const min = action(schema, "min_value");
      return typeof min === "number" ? min : 1;
    }
    case "boolean":
      return true;
    case "array":
      return [sampleValue(schema.item, depth + 1)];
    case "record":
      return {};
    case "literal":
      return schema.literal;
    case "picklist":
    case "enum":
      return schema.options?.[0] ?? "x";
    case "union":
    case "variant":
      return sampleValue(schema.options?.[0], depth + 1);
    case "lazy":
      return schema.getter ? sampleValue(schema.getter(undefined), depth + 1) : "x";
    default:
      return "x";
  }
}

function sampleObject(schema: SchemaLike, depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(schema.entries ?? {})) out[key] = sampleValue(entry, depth + 1);
  return out;
}

/** A sample body for an object schema (through optional and pipe wrappers); `undefined` otherwise. */
export function sampleBody(schema: unknown): Record<string, unknown> | undefined {
  let current: unknown = schema;
  while (isSchema(current) && WRAPPER_TYPES.has(current.type!)) current = current.wrapped;
  if (!isSchema(current) || !OBJECT_TYPES.has(current.type!)) return undefined;
  return sampleObject(current, 0);
}

/** A sample query for an object schema: every value as the string a URL would carry. */
export function sampleQuery(schema: unknown): Record<string, string> | undefined {
  const body = sampleBody(schema);
  if (!body) return undefined;
  const query: Record<string, string> = {};
  for (const [key, value] of Object.entries(body)) {
    query[key] = typeof value === "object" && value !== null ? JSON.stringify(value) : String(value);
  }
  return query;
}
