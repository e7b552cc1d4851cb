import {
  createLogger,
  orderedModels,
  type Adapter,
  type AdapterFactory,
  type ResolvedSchema,
  type Row,
} from "@latchkey/core";
import { baseSchema } from "./schema.js";

/** What a test file hands the suite: an adapter factory on a fresh, empty store. */
export interface ConformanceSetup {
  factory: AdapterFactory;
  /** Releases the store (drop the database, close pools). */
  teardown(): Promise<void>;
  /** Drops a table behind the adapter's back; enables the real-drop schema-check cases. */
  dropTable?(table: string): Promise<void>;
  /** Drops a column behind the adapter's back; enables the real-drop schema-check cases. */
  dropColumn?(table: string, column: string): Promise<void>;
}

/** Shared state of one suite run: the setup, and the adapter over the base schema. */
export class Harness {
  readonly schema = baseSchema();
  #setup: ConformanceSetup | undefined;
  #adapter: Adapter | undefined;
  #counter = 0;

  constructor(private readonly makeSetup: () => Promise<ConformanceSetup>) {}

  get setup(): ConformanceSetup {
    if (!this.#setup) throw new Error("conformance setup has not run");
    return this.#setup;
  }

  get adapter(): Adapter {
    if (!this.#adapter) throw new Error("conformance setup has not run");
    return this.#adapter;
  }

  /** An adapter over another schema, on the same store. */
  make(schema: ResolvedSchema): Adapter {
    return this.setup.factory({ schema, logger: createLogger({ disabled: true }) });
  }

  async start(): Promise<void> {
    this.#setup = await this.makeSetup();
    this.#adapter = this.make(this.schema);
    await this.#adapter.createTables?.();
  }

  async stop(): Promise<void> {
    await this.#adapter?.close?.();
    await this.#setup?.teardown();
  }

  /** Empties every base table, children first. */
  async clean(): Promise<void> {
    for (const model of orderedModels(this.schema).reverse()) {
      await this.adapter.deleteMany({ model: model.model, where: [] });
    }
  }

  /** A fresh id, unique within the run (core generates ids before `create`). */
  id(prefix = "id"): string {
    return `${prefix}${++this.#counter}x${Math.random().toString(36).slice(2, 10)}`;
  }

  /** A valid `item` row; `patch` overrides fields. */
  item(patch: Row = {}): Row {
    const id = this.id("it");
    return { id, name: "item", slug: `slug-${id}`, count: 0, active: true, ...patch };
  }

  async createItems(rows: Row[]): Promise<Row[]> {
    const out: Row[] = [];
    for (const row of rows) out.push(await this.adapter.create({ model: "item", data: this.item(row) }));
    return out;
  }

  /** A valid `user` row. */
  user(patch: Row = {}): Row {
    const id = this.id("u");
    const now = new Date();
    return {
      id,
      name: "User",
      email: `${id.toLowerCase()}@example.com`,
      emailVerified: false,
      createdAt: now,
      updatedAt: now,
      ...patch,
    };
  }
}
