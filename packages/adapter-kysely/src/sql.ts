import type { DatabaseType } from "./database-type.js";

// The adapter's own SQL: a template tag whose fragments nest, quote identifiers and bind every
// other value as a parameter, compiled per dialect to exactly the text Kysely's raw `sql` tag
// produced (same quoting, same placeholders), so statements and prepared-statement texts are
// unchanged. It is what keeps Kysely's query builder and compilers out of the adapter: about
// 115 KB minified of an edge bundle, for the few statement shapes an auth server sends.

/** An identifier path (`"table"`, or `"schema"."table"`), quoted at compile time. */
class Identifier {
  constructor(readonly names: readonly string[]) {}
}

type Piece = string | Identifier | Fragment | { readonly value: unknown };

/** A piece of SQL: text, identifiers, parameters and nested fragments. */
export class Fragment {
  constructor(readonly pieces: readonly Piece[]) {}
}

/** A statement ready for a driver: the text and its parameters in placeholder order. */
export interface Compiled {
  sql: string;
  parameters: unknown[];
}

const piece = (value: unknown): Piece =>
  value instanceof Fragment || value instanceof Identifier ? value : { value };

/** Tagged template: interpolated fragments and identifiers nest, anything else is a parameter. */
export function sql(strings: TemplateStringsArray, ...values: unknown[]): Fragment {
  const pieces: Piece[] = [];
  strings.forEach((text, i) => {
    if (text) pieces.push(text);
    if (i < values.length) pieces.push(piece(values[i]));
  });
  return new Fragment(pieces);
}

/** Text inserted as is (never user input). */
export const raw = (text: string): Fragment => new Fragment([text]);

/** A quoted identifier path: `id("s", "token")` is `"s"."token"`. */
export const id = (...names: string[]): Identifier => new Identifier(names);

/** A table name; `schema.table` is schema-qualified, as Kysely's `sql.table` reads it. */
export const table = (name: string): Identifier => new Identifier(name.split(".", 2).map((n) => n.trim()));

/** Items separated by `separator` (default `, `); plain values become parameters. */
export function join(items: readonly unknown[], separator: Fragment = raw(", ")): Fragment {
  const pieces: Piece[] = [];
  items.forEach((item, i) => {
    if (i > 0) pieces.push(separator);
    pieces.push(piece(item));
  });
  return new Fragment(pieces);
}

/** The empty fragment. */
export const EMPTY = new Fragment([]);

/** Quotes one identifier: `"` (SQLite, PostgreSQL) or a backtick (MySQL), doubled inside. */
export function quote(name: string, type: DatabaseType): string {
  const q = type === "mysql" ? "`" : '"';
  return q + name.split(q).join(q + q) + q;
}

/** Compiles a fragment: `?` placeholders on SQLite and MySQL, `$1`, `$2`… on PostgreSQL. */
export function compile(fragment: Fragment, type: DatabaseType): Compiled {
  const parameters: unknown[] = [];
  let text = "";
  const visit = (f: Fragment): void => {
    for (const p of f.pieces) {
      if (typeof p === "string") text += p;
      else if (p instanceof Fragment) visit(p);
      else if (p instanceof Identifier) text += p.names.map((n) => quote(n, type)).join(".");
      else {
        parameters.push(p.value);
        text += type === "postgres" ? `$${parameters.length}` : "?";
      }
    }
  };
  visit(fragment);
  return { sql: text, parameters };
}
