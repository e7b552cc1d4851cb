// The floor of the list-members figure: a bare node:http server that answers the page with only
// the work any implementation must do (the three statements both libraries run: the page, the
// COUNT and the page's users; the member and user objects; JSON), with no session, routing,
// validation or membership check. Its requests/s over the reference's is the highest ratio any
// implementation could reach on this machine.
//
//   KEEP_DB=1 pnpm --filter @latchkey/bench exec tsx --conditions=@latchkey/source \
//     src/profile/scenario-loop.ts --figure=list-members --n=100        # prints the database's folder
//   pnpm --filter @latchkey/bench exec tsx src/profile/list-members-floor.ts --db=<that folder> [--fused]
import autocannon from "autocannon";
import Database from "better-sqlite3";
import { fork } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const dir = process.argv.find((a) => a.startsWith("--db="))?.slice(5);
if (!dir) throw new Error("--db=<folder holding auth.db> is required");
const db = new Database(join(dir, "auth.db"));
db.pragma("journal_mode = WAL");
const { organizationId } = db
  .prepare(`SELECT "organizationId" FROM "member" GROUP BY 1 ORDER BY COUNT(*) DESC LIMIT 1`)
  .get() as { organizationId: string };
// Rows as arrays (better-sqlite3's fastest read); `createdAt` is stored as the ISO text the answer
// carries, so it is passed through without a Date.
const page = db.prepare(`SELECT "id", "organizationId", "userId", "role", "createdAt" FROM "member" WHERE ("organizationId" = ?) LIMIT ? OFFSET ?`).raw(true);
const count = db.prepare(`SELECT COUNT(*) AS "count" FROM "member" WHERE ("organizationId" = ?)`).pluck();
const usersOf = new Map<number, Database.Statement>();

type Row = [string, string, string, string, string];
type UserRow = [string, string, string, string | null];

// --fused: Latchkey's statements since findPage (the page with its users in one statement, then
// the count of the rows after the page) instead of the reference's three.
const fused = db
  .prepare(
    `SELECT "p"."id", "p"."organizationId", "p"."userId", "p"."role", "p"."createdAt", "p"."r", "u"."id", "u"."name", "u"."email", "u"."image" FROM (SELECT *, rowid AS "r" FROM "member" WHERE ("organizationId" = ?) ORDER BY "r" LIMIT ? OFFSET ?) AS "p" LEFT JOIN "user" AS "u" ON "u"."id" = "p"."userId" ORDER BY "p"."r"`,
  )
  .raw(true);
const countAfter = db.prepare(`SELECT COUNT(*) AS "count" FROM "member" WHERE ("organizationId" = ?) AND rowid > ?`).pluck();
type FusedRow = [string, string, string, string, string, number, string | null, string, string, string | null];

function answerFused(): string {
  const rows = fused.all(organizationId, 100, 5000) as FusedRow[];
  const total = 5000 + rows.length + (countAfter.get(organizationId, rows[rows.length - 1]![5]) as number);
  const members = rows.map(([id, org, userId, role, createdAt, , uid, name, email, image]) => ({
    id,
    organizationId: org,
    userId,
    role,
    createdAt,
    user: { id: uid, name, email, image },
  }));
  return JSON.stringify({ members, total });
}

function answer(): string {
  if (process.argv.includes("--fused")) return answerFused();
  const rows = page.all(organizationId, 100, 5000) as Row[];
  const total = count.get(organizationId) as number;
  const ids = [...new Set(rows.map((r) => r[2]))];
  let users = usersOf.get(ids.length);
  if (!users) {
    const list = ids.map(() => "?").join(", ");
    users = db.prepare(`SELECT "id", "name", "email", "image" FROM "user" WHERE "id" IN (${list})`).raw(true);
    usersOf.set(ids.length, users);
  }
  const byId = new Map((users.all(...ids) as UserRow[]).map((u) => [u[0], { id: u[0], name: u[1], email: u[2], image: u[3] }]));
  const members = rows.map(([id, org, userId, role, createdAt]) => ({ id, organizationId: org, userId, role, createdAt, user: byId.get(userId) }));
  return JSON.stringify({ members, total });
}

// The server runs in a child process, as the bench's servers do; autocannon loads it from here.
if (process.argv.includes("--serve")) {
  const server = createServer((_req, res) => {
    const body = answer();
    res.writeHead(200, { "content-type": "application/json" });
    res.end(body);
  });
  server.listen(0, "127.0.0.1", () => process.send?.((server.address() as AddressInfo).port));
} else {
  console.log(`answer: ${answer().length} bytes, total ${(JSON.parse(answer()) as { total: number }).total}`);
  db.close();
  const child = fork(fileURLToPath(import.meta.url), [...process.argv.slice(2), "--serve"], { execArgv: process.execArgv });
  const port = await new Promise<number>((resolve) => child.once("message", (m) => resolve(m as number)));
  const url = `http://127.0.0.1:${port}/`;
  await autocannon({ url, connections: 10, duration: 2 });
  const result = await autocannon({ url, connections: 10, duration: 5 });
  console.log(`floor list-members (100 from offset 5000): ${Math.round(result.requests.average)} rps, p50 ${result.latency.p50} ms`);
  child.kill();
}
