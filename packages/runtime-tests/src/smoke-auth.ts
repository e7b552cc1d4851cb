import { createAuth, type AdapterFactory, type Auth } from "@latchkey/core";
import { bearer } from "@latchkey/bearer";
import { LIMITED_PATH, smokePlugin } from "./smoke-plugin.js";

/** Secret shared by every runtime, so a cookie or hash made on one is readable on another. */
export const SMOKE_SECRET = "runtime-smoke-secret-0123456789-abcdefghijklmnop";

/** Requests allowed on the rate-limited route per window. */
export const LIMITED_MAX = 2;

/** What one smoke instance is built from. */
export interface SmokeAuthInput {
  runtime: string;
  database: AdapterFactory;
  /** Origin of the first request; the runtime picked the port, so it is only known then. */
  origin: string;
  basePath: string;
  /** SQL databases start empty; the memory adapter needs (and allows) no tables. */
  createTables: boolean;
}

/** One auth instance as the smoke suite configures it, tables created. */
export async function createSmokeAuth(input: SmokeAuthInput): Promise<Auth> {
  const auth = createAuth({
    database: input.database,
    secret: SMOKE_SECRET,
    baseURL: input.origin,
    basePath: input.basePath,
    emailAndPassword: { enabled: true },
    // Explicit, not left to NODE_ENV: only Node, Bun and Deno can read it, and the suite must
    // check the same behaviour everywhere.
    rateLimit: {
      enabled: true,
      storage: "memory",
      customRules: { [LIMITED_PATH]: { window: 60, max: LIMITED_MAX } },
    },
    advanced: { disableOriginCheck: false, disableCSRFCheck: false },
    logger: { level: "error" },
    plugins: [bearer(), smokePlugin(input.runtime)],
  });
  if (input.createTables) await auth.createTables();
  return auth;
}
