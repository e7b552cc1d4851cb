// Bundle-size entry: reference-minimal.ts plus the reference's counterparts of every Latchkey
// plugin package (src/plugins.ts REFERENCE_PLUGINS, through `bench:reference-all-plugins`).
import { kyselyAdapter } from "@better-auth/kysely-adapter";
import { allPlugins } from "bench:reference-all-plugins";
import { betterAuth } from "better-auth/minimal";
import { Kysely, type Dialect } from "kysely";

interface Env {
  AUTH_SECRET: string;
  BASE_URL: string;
  DIALECT: Dialect;
}

let handler: ((request: Request) => Promise<Response>) | undefined;

export default {
  fetch(request: Request, env: Env): Promise<Response> {
    handler ??= betterAuth({
      database: kyselyAdapter(new Kysely({ dialect: env.DIALECT }), { type: "sqlite" }),
      secret: env.AUTH_SECRET,
      baseURL: env.BASE_URL,
      emailAndPassword: { enabled: true },
      plugins: allPlugins(),
    }).handler;
    return handler(request);
  },
};
