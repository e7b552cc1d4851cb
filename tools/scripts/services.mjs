// Checks PostgreSQL, MariaDB and Redis on 127.0.0.1 and starts the ones that are down with
// the machine's own start commands. With `required`, a server that stays down is fatal:
// database tests never skip silently.
import { execSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { createConnection } from "node:net";

const services = [
  { name: "PostgreSQL", port: 5432, start: () => {
    const versions = existsSync("/etc/postgresql") ? readdirSync("/etc/postgresql") : [];
    return versions.map((v) => `pg_ctlcluster --skip-systemctl-redirect ${v} main start`);
  } },
  { name: "MariaDB", port: 3306, start: () => ["start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd"] },
  { name: "Redis", port: 6379, start: () => [
    'redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci.log',
  ] },
];

function reachable(port) {
  return new Promise((resolve) => {
    const socket = createConnection({ host: "127.0.0.1", port });
    socket.setTimeout(1000);
    socket.once("connect", () => { socket.destroy(); resolve(true); });
    socket.once("error", () => resolve(false));
    socket.once("timeout", () => { socket.destroy(); resolve(false); });
  });
}

export async function ensureServices({ required }) {
  const missing = [];
  for (const service of services) {
    if (await reachable(service.port)) continue;
    console.log(`[latchkey] ${service.name} is down on 127.0.0.1:${service.port}; starting it`);
    for (const cmd of service.start()) {
      try { execSync(cmd, { stdio: "inherit" }); } catch (e) { console.error(`[latchkey] ${cmd}: ${e.message}`); }
    }
    let up = false;
    for (let i = 0; i < 60 && !up; i++) {
      up = await reachable(service.port);
      if (!up) await new Promise((r) => setTimeout(r, 500));
    }
    if (!up) missing.push(service.name);
  }
  if (missing.length && required) {
    console.error(`[latchkey] could not reach ${missing.join(", ")}: the database tests need them.`);
    process.exit(1);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await ensureServices({ required: true });
