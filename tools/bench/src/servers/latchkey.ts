// Latchkey under load: createAuth with the options the bench's config names, served by serveBench.
import { kyselyAdapter } from "@latchkey/adapter-kysely";
import { createAuth } from "@latchkey/core";
import { redisStorage } from "@latchkey/redis-storage";
import { loadPlugins } from "bench:latchkey-plugins";
import { readServerConfig } from "../server-config.js";
import { openDatabase, openRedis } from "./drivers.js";
import { serveBench } from "./serve.js";

const config = readServerConfig();
const redis = await openRedis(config);
const auth = createAuth({
  database: kyselyAdapter(await openDatabase(config.database)),
  secret: config.secret,
  baseURL: config.baseURL,
  emailAndPassword: { enabled: true },
  rateLimit: { enabled: false },
  ...(config.cookieCache ? { session: { cookieCache: { enabled: true } } } : {}),
  ...(redis && config.redis
    ? { secondaryStorage: redisStorage({ client: redis, keyPrefix: config.redis.keyPrefix }) }
    : {}),
  plugins: await loadPlugins(config.plugins, {
    ...(config.pwnedRangeURL ? { "have-i-been-pwned": { rangeURL: config.pwnedRangeURL } } : {}),
    ...config.pluginOptions,
  }),
});
if (config.migrate) await auth.createTables();

await serveBench({
  handler: (request) => auth.handler(request),
  async createSessions(email, count) {
    const { internalAdapter } = auth.$context;
    const user = (await internalAdapter.findUserByEmail(email))?.user;
    if (!user) throw new Error(`no user ${email}`);
    const tokens: string[] = [];
    for (let i = 0; i < count; i++) {
      const session = await internalAdapter.createSession(user.id, false);
      if (!session) throw new Error("createSession returned no session");
      tokens.push(session.token);
    }
    return tokens;
  },
  secret: config.secret,
  port: config.port,
});
