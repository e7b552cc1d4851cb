// Public entry of @latchkey/redis-storage.
export { redisStorage, type RedisStorage, type RedisStorageConfig } from "./redis-storage.js";
