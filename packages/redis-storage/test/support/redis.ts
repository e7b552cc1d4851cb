import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";

/**
 * A client on this machine's Redis and a key prefix of its own, so runs cannot collide;
 * `cleanup()` deletes every key under the prefixes handed out and closes the client.
 */
export function testRedis() {
  const client = new Redis({ host: "127.0.0.1", port: 6379, maxRetriesPerRequest: 2 });
  const prefixes: string[] = [];
  const prefix = (label = "t"): string => {
    const value = `latchkey-test:${label}:${randomUUID()}:`;
    prefixes.push(value);
    return value;
  };
  const cleanup = async (): Promise<void> => {
    for (const p of prefixes) {
      const pattern = `${p.replace(/[\\*?[\]]/g, "\\$&")}*`;
      let cursor = "0";
      do {
        const [next, keys] = await client.scan(cursor, "MATCH", pattern, "COUNT", 500);
        cursor = next;
        if (keys.length) await client.del(...keys);
      } while (cursor !== "0");
    }
    await client.quit();
  };
  return { client, prefix, cleanup };
}
