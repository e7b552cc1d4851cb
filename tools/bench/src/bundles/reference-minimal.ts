// Bundle-size entry: the same minimal edge worker on the reference, `better-auth/minimal` (its
// Kysely-free entry) with email/password and its Kysely adapter package.
import { kyselyAdapter } from "@better-auth/kysely-adapter";
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
    }).handler;
    return handler(request);
  },
};
