// Bundle-size entry: a minimal edge worker with Latchkey core, email/password and the Kysely adapter.
// The database arrives as a Kysely dialect from the worker's environment (D1 or similar), so no
// driver is in the bundle. Latchkey's adapter takes the dialect itself and runs its driver, so no
// Kysely instance is built; the reference's adapter needs one (reference-minimal.ts, otherwise
// this file with the reference's imports).
import { kyselyAdapter } from "@latchkey/adapter-kysely/sqlite";
import { createAuth, type Auth } from "@latchkey/core";
import type { Dialect } from "kysely";

interface Env {
  AUTH_SECRET: string;
  BASE_URL: string;
  DIALECT: Dialect;
}

let auth: Auth | undefined;

export default {
  fetch(request: Request, env: Env): Promise<Response> {
    auth ??= createAuth({
      database: kyselyAdapter(env.DIALECT),
      secret: env.AUTH_SECRET,
      baseURL: env.BASE_URL,
      emailAndPassword: { enabled: true },
    });
    return auth.handler(request);
  },
};
