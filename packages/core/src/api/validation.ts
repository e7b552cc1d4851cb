import * as v from "valibot";

/**
 * Names a value's type the way the reference's validation messages do
 * (`expected string, received undefined`).
 */
function received(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number" && Number.isNaN(value)) return "NaN";
  if (value instanceof Date) return "date";
  return typeof value;
}

const expectedNames: Record<string, string> = {
  string: "string",
  number: "number",
  boolean: "boolean",
  object: "object",
  loose_object: "object",
  strict_object: "object",
  object_with_rest: "object",
  array: "array",
  record: "record",
  picklist: "enum",
  literal: "literal",
};

interface SchemaNode {
  type: string;
  entries?: Record<string, SchemaNode>;
  wrapped?: SchemaNode;
  options?: SchemaNode[];
}

/** The schema of one key: through optional wrappers and into each intersected part. */
function child(node: SchemaNode | undefined, key: string): SchemaNode | undefined {
  while (node?.wrapped) node = node.wrapped;
  if (node?.type === "intersect") {
    for (const option of node.options ?? []) {
      const found = child(option, key);
      if (found) return found;
    }
    return undefined;
  }
  return node?.entries?.[key];
}

/** The type the schema expects at `path` (a missing key's issue names only its parent object). */
function expectedAt(
  schema: SchemaNode | undefined,
  path: readonly { key: unknown }[] | undefined,
): string | undefined {
  let node = schema;
  for (const step of path ?? []) node = child(node, String(step.key));
  while (node?.wrapped) node = node.wrapped;
  return node?.type;
}

/** Turns one valibot issue into the reference's wording. The submitted value is never echoed. */
function describe(issue: v.BaseIssue<unknown>, schema: SchemaNode | undefined): string {
  if (issue.kind === "schema") {
    const missingKey = issue.input === undefined && !!issue.path?.length;
    const type = missingKey ? (expectedAt(schema, issue.path) ?? issue.type) : issue.type;
    // A union names no single type: the reference's (zod) wording is plain "Invalid input".
    if (type === "union") return "Invalid input";
    const expected = expectedNames[type] ?? type;
    return `Invalid input: expected ${expected}, received ${received(issue.input)}`;
  }
  // Our own checks always carry an explicit message (valibot's defaults echo the input).
  if (issue.type === "check") return issue.message;
  if (issue.type === "email") return "Invalid email address";
  if (issue.type === "non_empty" || issue.type === "min_length") {
    return `Too small: expected string to have >=${String(issue.requirement ?? 1)} characters`;
  }
  if (issue.type === "max_length") {
    return `Too big: expected string to have <=${String(issue.requirement)} characters`;
  }
  return "Invalid input";
}

/** A key a strict object does not declare (valibot reports one issue per key, at the key). */
const isUnknownKey = (issue: v.BaseIssue<unknown>): boolean =>
  issue.type === "strict_object" && issue.expected === "never";

/** The keys the object schema at `path` declares. */
function declaredKeys(
  schema: SchemaNode | undefined,
  path: readonly { key: unknown }[] | undefined,
): Set<string> {
  let node = schema;
  for (const step of path ?? []) node = child(node, String(step.key));
  while (node?.wrapped) node = node.wrapped;
  return new Set(Object.keys(node?.entries ?? {}));
}

/** `body`, `body.user`: where an issue sits, named as the reference names it. */
function location(path: readonly { key: unknown }[] | undefined, where: "body" | "query"): string {
  const dotted = path?.map((p) => String(p.key)).join(".");
  return dotted ? `${where}.${dotted}` : where;
}

/**
 * `[body.email] Invalid email address; [query.x] …`, the reference's VALIDATION_ERROR message.
 * Keys a strict object does not declare come last, one entry per object, in zod's words:
 * `[body] Unrecognized key: "x"` or `[body] Unrecognized keys: "x", "y"`.
 */
export function validationMessage(
  issues: readonly v.BaseIssue<unknown>[],
  where: "body" | "query",
  schema?: v.GenericSchema<unknown, unknown> | v.GenericSchemaAsync<unknown, unknown>,
): string {
  const parts = issues
    .filter((issue) => !isUnknownKey(issue))
    .map((issue) => `[${location(issue.path, where)}] ${describe(issue, schema as SchemaNode | undefined)}`);
  for (const issue of issues.filter(isUnknownKey)) {
    // valibot stops at an object's first unknown key; the reference lists them all.
    const parentPath = issue.path?.slice(0, -1);
    const value = issue.path?.at(-1)?.input;
    const declared = declaredKeys(schema as SchemaNode | undefined, parentPath);
    const keys =
      value && typeof value === "object" ? Object.keys(value).filter((key) => !declared.has(key)) : [];
    const names = (keys.length ? keys : [String(issue.path?.at(-1)?.key)]).map((key) => JSON.stringify(key));
    parts.push(
      `[${location(parentPath, where)}] Unrecognized key${names.length > 1 ? "s" : ""}: ${names.join(", ")}`,
    );
  }
  return parts.join("; ");
}

/**
 * Email syntax the reference's validator accepts: no leading or doubled dots in the local
 * part, labelled domain, alphabetic TLD of two or more letters.
 */
const EMAIL =
  /^(?!\.)(?!.*\.\.)([A-Za-z0-9_'+\-.]*)[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;

/** True when `value` is a string the reference would take as an email address. */
export const isEmail = (value: unknown): value is string => typeof value === "string" && EMAIL.test(value);

/** A valibot email check with the reference's syntax. */
export const email = (): v.CheckAction<string, string> =>
  v.check((value: string) => EMAIL.test(value), "Invalid email address");
