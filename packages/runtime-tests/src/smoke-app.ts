import { memoryAdapter, type AdapterFactory, type Auth } from "@latchkey/core";
import { kyselyAdapter, type DatabaseInput } from "@latchkey/adapter-kysely";
import { kyselyAdapter as sqliteAdapter } from "@latchkey/adapter-kysely/sqlite";
import { D1Dialect, type D1DialectConfig } from "kysely-d1";
import { createSmokeAuth } from "./smoke-auth.js";

/** Options of {@link createSmokeHandler}. */
export interface SmokeHandlerOptions {
  /** Name the ping route reports, e.g. `"bun"`. */
  runtime: string;
  /** A database the runtime reaches (raw driver or Kysely dialect); mounted as `sql`. */
  sql?: DatabaseInput | AdapterFactory;
}

type Handler = (request: Request) => Promise<Response>;

/**
 * The smoke suite's fetch handler: a memory-adapter instance under `/memory/api/auth` and, when
 * given, a Kysely instance under `/sql/api/auth`. Each is built on its first request, whose
 * origin becomes its base URL (runtimes listen on a port they choose).
 */
export function createSmokeHandler(options: SmokeHandlerOptions): Handler {
  const databases = new Map<string, AdapterFactory>([["memory", memoryAdapter()]]);
  const { sql } = options;
  if (sql) databases.set("sql", typeof sql === "function" ? (sql as AdapterFactory) : kyselyAdapter(sql));
  const instances = new Map<string, Promise<Auth>>();

  return async (request) => {
    const name = new URL(request.url).pathname.split("/")[1] ?? "";
    const database = databases.get(name);
    if (!database) return Response.json({ message: "No such instance" }, { status: 404 });
    let auth = instances.get(name);
    if (!auth) {
      const origin = new URL(request.url).origin;
      auth = createSmokeAuth({
        runtime: options.runtime,
        database,
        origin,
        basePath: `/${name}/api/auth`,
        createTables: name === "sql",
      });
      instances.set(name, auth);
    }
    try {
      return (await auth).handler(request);
    } catch (error) {
      // Start-up failed (e.g. createTables): say why in the body, the test prints it.
      return Response.json(
        { message: `smoke instance "${name}" failed to start: ${String(error)}` },
        { status: 500 },
      );
    }
  };
}

interface WorkerEnv {
  RUNTIME?: string;
  /**
   * A D1 binding (workerd's bundled D1 worker), when the config provides one. Typed loosely:
   * its type lives in @cloudflare/workers-types, which this workspace does not install.
   */
  DB?: object;
  /** `"binding"`: the adapter runs D1 itself; `"dialect"`: through kysely-d1's dialect. */
  D1_ACCESS?: string;
}

let workerHandler: Handler | undefined;

// workerd treats every named export of its main module as an entrypoint and refuses
// non-handler values, so this module exports only functions.

/** The module-worker entry workerd loads: the memory instance, and D1 as the SQL instance. */
export default {
  fetch(request: Request, env: WorkerEnv): Promise<Response> {
    // A binding, unlike a TCP connection, is not tied to the request that first used it, so
    // one adapter over it serves every request (see README).
    const { DB } = env;
    workerHandler ??= createSmokeHandler({
      runtime: env.RUNTIME ?? "workerd",
      sql: !DB
        ? undefined
        : env.D1_ACCESS === "dialect"
          ? // kysely-d1's dialect, through the per-dialect entry.
            sqliteAdapter(new D1Dialect({ database: DB } as D1DialectConfig))
          : // The binding itself: the adapter runs D1 directly.
            kyselyAdapter(DB),
    });
    return workerHandler(request);
  },
};
