/** Column types a model field may have; the literal-array form is a string enum. */
export type DBFieldType =
  | "string"
  | "number"
  | "boolean"
  | "date"
  | "json"
  | "string[]"
  | "number[]"
  | readonly string[];

/**
 * The foreign-key actions a reference may name, as the reference accepts them (lower case).
 * The action is written into DDL, so nothing else is let through.
 */
export const ON_DELETE_ACTIONS = ["no action", "restrict", "cascade", "set null", "set default"] as const;

/** One of `ON_DELETE_ACTIONS`. */
export type OnDeleteAction = (typeof ON_DELETE_ACTIONS)[number];

/** One field of a model, in the reference's `DBFieldAttribute` format. */
export interface DBField {
  type: DBFieldType;
  /** NOT NULL. @default true */
  required?: boolean;
  unique?: boolean;
  /** Creates a non-unique index `<table>_<column>_idx`. */
  index?: boolean;
  /** Value (or factory) applied on create when the input leaves the field out. */
  defaultValue?: unknown | (() => unknown);
  /** Value (or factory) applied on every update. */
  onUpdate?: () => unknown;
  /** `false`: clients may not set it through the API. @default true */
  input?: boolean;
  /** `false`: stripped from API output. @default true */
  returned?: boolean;
  /** Foreign key; `onDelete` defaults to "cascade". */
  references?: { model: string; field: string; onDelete?: OnDeleteAction };
  /** Physical column name. @default the field key */
  fieldName?: string;
  /** Sortable strings become `varchar(255)` on MySQL. */
  sortable?: boolean;
  /** Number stored as a 64-bit integer. */
  bigint?: boolean;
}

/**
 * A table-level index over logical fields (the reference's `indexes`, used e.g. by the
 * device-authorization table). Named `<table>_<columns>_idx` / `_uidx` unless `name` is set.
 */
export interface ModelIndex {
  fields: string[];
  unique?: boolean;
  name?: string;
  /**
   * A partial index over the rows whose `field` contains `value` (`WHERE <column> LIKE
   * '%<value>%'`, the text a `contains` where-clause sends), so a query carrying that clause can
   * read those rows from the index alone. How a dialect holds it is the adapter's: the Kysely
   * adapter makes a partial index on PostgreSQL and SQLite, and on MySQL an index on an
   * invisible generated column holding the predicate.
   */
  where?: { field: string; operator: "contains"; value: string };
}

/** A table, as a plugin or core declares it. Field keys are logical names. */
export interface ModelSchema {
  /** Physical table name. @default the model key */
  modelName?: string;
  fields: Record<string, DBField>;
  /** Creation order (core tables use 1-4). */
  order?: number;
  disableMigration?: boolean;
  indexes?: ModelIndex[];
}

/** Logical model name → model. */
export type SchemaDefinition = Record<string, ModelSchema>;

/** A field after defaults: physical column name known. */
export interface ResolvedField extends DBField {
  fieldName: string;
}

/** A model after merging core, options and plugins. `fields` excludes the implicit `id`. */
export interface ResolvedModel {
  /** Logical name used in code (`user`). */
  model: string;
  /** Physical table name. */
  tableName: string;
  fields: Record<string, ResolvedField>;
  order: number;
  disableMigration: boolean;
  /** Table-level indexes, fields still logical. */
  indexes?: ModelIndex[];
}

/** Every model the running instance uses, keyed by logical name. */
export type ResolvedSchema = Record<string, ResolvedModel>;
