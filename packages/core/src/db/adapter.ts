import type { ResolvedSchema } from "./field.js";
import type { Logger } from "../logger.js";

/** Comparison operators a `Where` clause may use (the reference's list). */
export type WhereOperator =
  | "eq"
  | "ne"
  | "lt"
  | "lte"
  | "gt"
  | "gte"
  | "in"
  | "not_in"
  | "contains"
  | "starts_with"
  | "ends_with";

/** One condition on a logical field name. Clauses join with `connector` (default AND). */
export interface Where {
  field: string;
  value: string | number | boolean | string[] | number[] | Date | null;
  /** @default "eq" */
  operator?: WhereOperator;
  /** @default "AND" */
  connector?: "AND" | "OR";
}

export type Row = Record<string, unknown>;

/** What `findMany` reads: rows of `model` matching `where`, sorted and paged. */
export interface FindManyArgs {
  model: string;
  where?: Where[];
  limit?: number;
  offset?: number;
  sortBy?: { field: string; direction: "asc" | "desc" };
  select?: string[];
}

/**
 * A to-one join of `findPage`, keyed by the joined model's name: each row gets, under that
 * name, the row of the joined model whose `id` is the row's `field` (or `null`), read as
 * `findMany` with `select` would read it.
 */
export interface PageJoin {
  field: string;
  select?: string[];
}

/** What `findPage` reads: `findMany`'s page, the models it joins, and the count of every match. */
export interface FindPageArgs extends FindManyArgs {
  join?: Record<string, PageJoin>;
}

/** One page of rows and how many rows the `where` matches in all. */
export interface Page<T> {
  rows: T[];
  total: number;
}

/**
 * Storage operations core and plugins use. Model and field names are logical (`user`,
 * `emailVerified`); the adapter maps them to tables and columns through the resolved schema,
 * encodes values for its database (dates, booleans, JSON and lists as text) and decodes rows
 * back to JavaScript values (`Date`, `boolean`, `number`, parsed JSON).
 */
export interface Adapter {
  /** Short identifier, e.g. `"kysely"` or `"memory"`. */
  readonly id: string;
  /** Inserts `data` as given (core has already generated the id and applied defaults). */
  create<T extends Row = Row>(args: { model: string; data: Row; select?: string[] }): Promise<T>;
  findOne<T extends Row = Row>(args: { model: string; where: Where[]; select?: string[] }): Promise<T | null>;
  findMany<T extends Row = Row>(args: FindManyArgs): Promise<T[]>;
  count(args: { model: string; where?: Where[] }): Promise<number>;
  /**
   * Optional: `findMany`, the joined rows and `count` over the same `where`, in fewer reads
   * than the three make apart (a listing page with its total). Callers go through core's
   * `findPage`, which does it with `findMany`, one `in` read per join and `count` when an
   * adapter leaves this out; the answer is the same either way.
   */
  findPage?<T extends Row = Row>(args: FindPageArgs): Promise<Page<T>>;
  /** Updates one matching row and returns it, or `null` when nothing matched (or `where` is empty). */
  update<T extends Row = Row>(args: { model: string; where: Where[]; update: Row }): Promise<T | null>;
  /** Returns the number of rows updated. */
  updateMany(args: { model: string; where: Where[]; update: Row }): Promise<number>;
  delete(args: { model: string; where: Where[] }): Promise<void>;
  /** Returns the number of rows deleted. */
  deleteMany(args: { model: string; where: Where[] }): Promise<number>;
  /**
   * Atomically deletes one row matching `where` and returns it; concurrent callers racing for
   * the same row: exactly one gets it, the rest `null`. Never deletes more than one row.
   */
  consumeOne<T extends Row = Row>(args: { model: string; where: Where[] }): Promise<T | null>;
  /**
   * Atomically applies `field = field + delta` for each `increment` entry (and assigns `set`)
   * on one row matching `where`, which is both selector and guard. Returns the updated row, or
   * `null` when the guard matched nothing.
   */
  incrementOne<T extends Row = Row>(args: {
    model: string;
    where: Where[];
    increment: Record<string, number>;
    set?: Row;
  }): Promise<T | null>;
  /**
   * Optional: the `session` row whose `token` equals `token` and the `user` row it belongs to
   * (`user.id = session.userId`), read together (one join), as `findOne` would return each;
   * `null` when either is missing. Core reads sessions with it on every authenticated request
   * and falls back to two `findOne` calls when an adapter leaves it out.
   */
  findSessionWithUser?<S extends Row = Row, U extends Row = Row>(
    token: string,
  ): Promise<{ session: S; user: U } | null>;
  /** Runs `fn` in one transaction; the adapter passed to `fn` runs inside it. */
  transaction<R>(fn: (trx: Adapter) => Promise<R>): Promise<R>;
  /** Creates every table, column and index of the schema that is missing. */
  createTables?(): Promise<void>;
  /**
   * Compares the database with the schema. Returns the problems found (empty when it matches).
   * Adapters that cannot inspect their store leave this out.
   */
  findSchemaProblems?(): Promise<SchemaProblem[]>;
  /** Releases connections the adapter opened itself. */
  close?(): Promise<void>;
}

/** A missing table or a missing column, as schema validation reports it. */
export interface SchemaProblem {
  table: string;
  /** Missing column; absent when the whole table is missing. */
  column?: string;
}

/** What core hands an adapter factory once the options and plugins are merged. */
export interface AdapterInit {
  schema: ResolvedSchema;
  logger: Logger;
}

/** `database` option: a function core calls once with the merged schema. */
export type AdapterFactory = (init: AdapterInit) => Adapter;
