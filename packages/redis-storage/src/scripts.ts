import { createHash } from "node:crypto";
import type { Redis } from "ioredis";

/**
 * INCR, then an expiry only when the key has none (TTL -1): a new counter gets `ttl`, later
 * increments never extend it. This is `EXPIRE NX` (Redis 7) in a form Redis 2.6+ runs; the
 * script runs as one command, so no other client sees a counter without its expiry. A value
 * that is not an integer fails like INCR does ("value is not an integer or out of range").
 */
export const INCREMENT_SCRIPT = `
local value = redis.call("INCR", KEYS[1])
if redis.call("TTL", KEYS[1]) == -1 then
  redis.call("EXPIRE", KEYS[1], ARGV[1])
end
return value
`;

/** GET + DEL as one command, for servers older than Redis 6.2 (no GETDEL). */
export const GET_AND_DELETE_SCRIPT = `
local value = redis.call("GET", KEYS[1])
if value then
  redis.call("DEL", KEYS[1])
end
return value
`;

const sha1 = (script: string): string => createHash("sha1").update(script).digest("hex");

/**
 * Runs a one-key Lua script by its SHA-1 (EVALSHA), sending the body (EVAL, which also caches
 * it on the server) only when the server answers NOSCRIPT, e.g. after a restart or failover.
 */
export function scriptRunner(client: Redis, script: string) {
  const digest = sha1(script);
  return async (key: string, ...args: Array<string | number>): Promise<unknown> => {
    try {
      return await client.evalsha(digest, 1, key, ...args);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith("NOSCRIPT")) throw error;
      return client.eval(script, 1, key, ...args);
    }
  };
}

/** True for the error a server gives for a command it does not know (GETDEL before 6.2). */
export const isUnknownCommand = (error: unknown): boolean =>
  error instanceof Error && error.message.toLowerCase().includes("unknown command");
