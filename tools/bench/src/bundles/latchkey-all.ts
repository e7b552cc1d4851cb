// Bundle-size entry: latchkey-minimal.ts plus every plugin package in packages/ (discovered by
// src/plugins.ts and imported statically through the generated `bench:latchkey-all-plugins`).
import { kyselyAdapter } from "@latchkey/adapter-kysely/sqlite";
import { createAuth, type Auth } from "@latchkey/core";
import { allPlugins } from "bench:latchkey-all-plugins";
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
      plugins: allPlugins(),
    });
    return auth.handler(request);
  },
};
