// The reference under load: better-auth@1.7.6 with the same options, tables made by its own migrator.
import { betterAuth, type BetterAuthOptions } from "better-auth";
import { getMigrations } from "better-auth/db/migration";
import { loadPlugins } from "bench:reference-plugins";
import { readServerConfig } from "../server-config.js";
import { openDatabase, openRedis } from "./drivers.js";
import { referenceRedisStorage } from "@latchkey/test-support/reference-redis-storage";
import { serveBench } from "./serve.js";
import { redirectPwnedRange } from "../pwned-range.js";

const config = readServerConfig();
// Its have-i-been-pwned plugin asks only the public API: sent to the bench's local one instead.
if (config.pwnedRangeURL) redirectPwnedRange(config.pwnedRangeURL);
const redis = await openRedis(config);
const options = {
  database: await openDatabase(config.database),
  secret: config.secret,
  baseURL: config.baseURL,
  emailAndPassword: { enabled: true },
  rateLimit: { enabled: false },
  ...(config.cookieCache ? { session: { cookieCache: { enabled: true } } } : {}),
  ...(redis && config.redis
    ? { secondaryStorage: referenceRedisStorage(redis, config.redis.keyPrefix) }
    : {}),
  plugins: await loadPlugins(config.plugins, config.pluginOptions),
} satisfies BetterAuthOptions;
if (config.migrate) await (await getMigrations(options)).runMigrations();
const auth = betterAuth(options);

await serveBench({
  handler: (request) => auth.handler(request),
  async createSessions(email, count) {
    const { internalAdapter } = await auth.$context;
    const found = await internalAdapter.findUserByEmail(email);
    if (!found) throw new Error(`no user ${email}`);
    const tokens: string[] = [];
    for (let i = 0; i < count; i++) tokens.push((await internalAdapter.createSession(found.user.id)).token);
    return tokens;
  },
  secret: config.secret,
  port: config.port,
});
