import {
  BetterAuthError,
  comparableWhere,
  type ResolvedField,
  type ResolvedSchema,
  type Where,
  type WhereOperator,
} from "@latchkey/core";

/** The query of `GET /admin/list-users` after validation. */
export interface ListUsersQuery {
  searchValue?: string;
  searchField?: "email" | "name";
  searchOperator?: "contains" | "starts_with" | "ends_with";
  limit?: string | number;
  offset?: string | number;
  sortBy?: string;
  sortDirection?: "asc" | "desc";
  filterField?: string;
  filterValue?: string | number | boolean | string[] | number[];
  filterOperator?: WhereOperator;
}

/** How one page of users is read: the adapter's where, sort and paging. */
export interface UserQueryPlan {
  where: Where[];
  sortBy?: { field: string; direction: "asc" | "desc" };
  limit?: number;
  offset?: number;
  /** A field that is no user column, or a value no column holds: the answer is an empty list. */
  matchesNothing: boolean;
}

const ID_FIELD: ResolvedField = { type: "string", fieldName: "id", required: true };

/**
 * A paging number as the reference reads it (`Number(value) || undefined`), kept only when it
 * is a positive whole number: the reference hands negative and fractional values to the
 * database, which answers differently on each dialect.
 */
function paging(value: string | number | undefined): number | undefined {
  const n = Number(value);
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

/** A query-string value read for its column: booleans, numbers and dates arrive as text. */
function typed(field: ResolvedField, value: unknown): unknown {
  if (typeof value !== "string") return value;
  if (field.type === "boolean") return value === "true" ? true : value === "false" ? false : value;
  if (field.type === "number" && value.trim() !== "" && Number.isFinite(Number(value))) return Number(value);
  if (field.type === "date" && !Number.isNaN(Date.parse(value))) return new Date(value);
  return value;
}

/**
 * Turns the list-users query into one adapter read. A sort or filter on a field the user table
 * does not have, or a value its column cannot be compared with, matches nothing; the reference
 * gets the same empty answer from the database error it catches.
 */
export function userFilter(schema: ResolvedSchema, query: ListUsersQuery): UserQueryPlan {
  const fields = schema.user?.fields ?? {};
  const fieldOf = (name: string): ResolvedField | undefined =>
    name === "id" ? ID_FIELD : Object.hasOwn(fields, name) ? fields[name] : undefined;
  const plan: UserQueryPlan = { where: [], limit: paging(query.limit), offset: paging(query.offset), matchesNothing: false };
  const add = (clause: Where): void => {
    const field = fieldOf(clause.field);
    if (!field) {
      plan.matchesNothing = true;
      return;
    }
    const operator = clause.operator ?? "eq";
    let value = Array.isArray(clause.value) ? clause.value.map((item) => typed(field, item)) : typed(field, clause.value);
    // `in` and `not_in` take a list; a single value is a list of one.
    if ((operator === "in" || operator === "not_in") && !Array.isArray(value)) value = [value];
    try {
      const checked = comparableWhere("user", { ...clause, value: value as Where["value"] }, field);
      if (checked === false) plan.matchesNothing = true;
      else if (checked !== true) plan.where.push(checked);
    } catch (error) {
      if (!(error instanceof BetterAuthError)) throw error;
      plan.matchesNothing = true;
    }
  };
  if (query.searchValue) {
    add({ field: query.searchField ?? "email", operator: query.searchOperator ?? "contains", value: query.searchValue });
  }
  if (query.filterValue !== undefined) {
    add({ field: query.filterField ?? "email", operator: query.filterOperator ?? "eq", value: query.filterValue });
  }
  if (query.sortBy) {
    if (fieldOf(query.sortBy)) plan.sortBy = { field: query.sortBy, direction: query.sortDirection ?? "asc" };
    else plan.matchesNothing = true;
  }
  return plan;
}
