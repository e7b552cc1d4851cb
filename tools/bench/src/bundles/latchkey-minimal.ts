// Bundle-size entry: a minimal edge worker with Latchkey core, email/password and the Kysely adapter.
// The database arrives as a Kysely dialect from the worker's environment (D1 or similar), so no
// driver is in the bundle; reference-minimal.ts is this file with the reference's imports.
import { kyselyAdapter } from "@latchkey/adapter-kysely/sqlite";
import { createAuth, type Auth } from "@latchkey/core";
import { Kysely, type Dialect } from "kysely";

interface Env {
  AUTH_SECRET: string;
  BASE_URL: string;
  DIALECT: Dialect;
}

let auth: Auth | undefined;

export default {
  fetch(request: Request, env: Env): Promise<Response> {
    auth ??= createAuth({
      database: kyselyAdapter(new Kysely({ dialect: env.DIALECT })),
      secret: env.AUTH_SECRET,
      baseURL: env.BASE_URL,
      emailAndPassword: { enabled: true },
    });
    return auth.handler(request);
  },
};
