import { loadavg } from "node:os";
import { withServers, type RunContext, type Target } from "../run-context.js";
import { newId, openSeed } from "../sqlite-seed.js";
import type { DatabaseConfig } from "../server-config.js";
import { seedFetch } from "../seed-fetch.js";
import type { Table } from "../table.js";
import { measureFigures, pairTable, scaleSpecs, type PairFigure, type PairRow } from "./pair-rows.js";

/** The scale of issue #12. */
export const ORGANIZATION_SCALE = {
  /** Members of the bench user's active organization (the bench user, its owner, included). */
  members: 10_000,
  /** Organizations the bench user belongs to (the active one included). */
  organizations: 200,
  /** Users in the user table, for the admin plugin's list-users search. */
  users: 100_000,
  /** The list-members page. */
  pageSize: 100,
  pageOffset: 5_000,
} as const;

export interface OrganizationResult {
  rows: PairRow[];
}

const json = (baseURL: string, cookie: string) => ({ "content-type": "application/json", origin: baseURL, cookie });

/**
 * Issue #12 on SQLite, organization and admin plugins on both: an organization with 10,000
 * members, whose owner (the bench user, also an admin) belongs to 200 organizations, among
 * 100,000 users. The organization is created through the API, everything else copied in by SQL
 * from the rows the library wrote; then has-permission, get-active-member, a page of
 * list-members deep in the list, and list-users with an email search.
 */
export async function runOrganization(ctx: RunContext): Promise<OrganizationResult> {
  const specs = scaleSpecs(ctx, ["organization", "admin"]);
  const rows = await withServers(ctx, specs, async (targets) => {
    for (const key of ["latchkey", "reference"] as const) {
      const started = performance.now();
      await seedOrganization(targets[key], specs[key].settings.database);
      ctx.log(`${key}: seeded ${ORGANIZATION_SCALE.users} users, ${ORGANIZATION_SCALE.members} members, ${ORGANIZATION_SCALE.organizations} organizations in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }
    return measureFigures(ctx, targets, figures(), () => loadavg()[0] ?? 0);
  });
  return { rows };
}

function figures(): PairFigure[] {
  const { pageSize, pageOffset } = ORGANIZATION_SCALE;
  return [
    {
      label: "has-permission (member:create)",
      minRatio: 5,
      request: ({ server, user }) => ({
        method: "POST",
        requests: [
          {
            path: "/api/auth/organization/has-permission",
            headers: json(server.baseURL, user.cookie),
            body: JSON.stringify({ permissions: { member: ["create"] } }),
          },
        ],
      }),
    },
    {
      label: "get-active-member",
      minRatio: 5,
      request: ({ user }) => ({
        method: "GET",
        requests: [{ path: "/api/auth/organization/get-active-member", headers: { cookie: user.cookie } }],
      }),
    },
    {
      label: `list-members (${pageSize} from offset ${pageOffset})`,
      minRatio: 5,
      request: ({ user }) => ({
        method: "GET",
        requests: [
          {
            path: `/api/auth/organization/list-members?limit=${pageSize}&offset=${pageOffset}`,
            headers: { cookie: user.cookie },
          },
        ],
      }),
    },
    {
      label: `admin list-users, email contains (${ORGANIZATION_SCALE.users} users)`,
      minRatio: null,
      request: ({ user }) => {
        // A different search each request (user-00000…user-99999 all match one user), as a search box would send.
        let next = 0;
        return {
          method: "GET",
          requests: [
            {
              path: "/api/auth/admin/list-users",
              headers: { cookie: user.cookie },
              setupRequest: (request) => ({
                ...request,
                path: `/api/auth/admin/list-users?searchValue=user-${String((next++ * 7919) % ORGANIZATION_SCALE.users).padStart(5, "0")}%40&searchField=email&searchOperator=contains&limit=20`,
              }),
            },
          ],
        };
      },
    },
  ];
}

/** The organization through the API (so each library writes its own template rows), the rest by SQL. */
async function seedOrganization({ server, user }: Target, database: DatabaseConfig): Promise<void> {
  const base = server.baseURL;
  const created = await seedFetch(`${base}/api/auth/organization/create`, {
    method: "POST",
    headers: json(base, user.cookie),
    body: JSON.stringify({ name: "Bench Org", slug: "bench-org" }),
  });
  const org = (await created.json()) as { id?: string };
  if (created.status !== 200 || !org.id) throw new Error(`organization/create answered ${created.status}: ${JSON.stringify(org)}`);
  const active = await seedFetch(`${base}/api/auth/organization/set-active`, {
    method: "POST",
    headers: json(base, user.cookie),
    body: JSON.stringify({ organizationId: org.id }),
  });
  if (active.status !== 200) throw new Error(`organization/set-active answered ${active.status}: ${await active.text()}`);

  const db = openSeed(database);
  try {
    const benchUser = db.one(`select * from "user" where email = ?`, user.email);
    const owner = db.one(`select * from "member" where "organizationId" = ?`, org.id);
    const organization = db.one(`select * from "organization" where id = ?`, org.id);
    // The bench user is the admin that lists users.
    db.run(`update "user" set role = 'admin' where id = ?`, benchUser.id);
    const { users, members, organizations } = ORGANIZATION_SCALE;
    const userIds: string[] = [];
    db.copies("user", { ...benchUser, role: "user" }, users - 1, (i) => {
      const id = newId();
      userIds.push(id);
      const n = String(i).padStart(5, "0");
      return { id, email: `user-${n}@example.com`, name: `User ${n}` };
    });
    db.copies("member", owner, members - 1, (i) => ({ id: newId(), userId: userIds[i], role: "member" }));
    const orgIds: string[] = [];
    db.copies("organization", organization, organizations - 1, (i) => {
      const id = newId();
      orgIds.push(id);
      return { id, name: `Org ${i}`, slug: `org-${i}` };
    });
    db.copies("member", owner, organizations - 1, (i) => ({ id: newId(), organizationId: orgIds[i], role: "member" }));
  } finally {
    db.close();
  }
  // Each figure's request answers 200 on this server before it is loaded.
  for (const [path, init] of [
    ["/organization/get-active-member", {}],
    [`/organization/list-members?limit=1&offset=${ORGANIZATION_SCALE.pageOffset}`, {}],
    ["/admin/list-users?searchValue=user-00042%40&searchField=email&searchOperator=contains&limit=20", {}],
    [
      "/organization/has-permission",
      { method: "POST", body: JSON.stringify({ permissions: { member: ["create"] } }) },
    ],
  ] as const) {
    const res = await seedFetch(`${base}/api/auth${path}`, { ...init, headers: json(base, user.cookie) });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${text.slice(0, 300)}`);
    if (path.startsWith("/admin/list-users") && !text.includes("user-00042@example.com"))
      throw new Error(`list-users search found nothing: ${text.slice(0, 300)}`);
    if (path.startsWith("/organization/list-members") && !text.includes(`"total":${ORGANIZATION_SCALE.members}`))
      throw new Error(`list-members total is not ${ORGANIZATION_SCALE.members}: ${text.slice(0, 300)}`);
  }
}

export function organizationTable(result: OrganizationResult): Table {
  return pairTable(
    `issue #12: organization at scale (SQLite in WAL mode; ${ORGANIZATION_SCALE.members} members, owner in ${ORGANIZATION_SCALE.organizations} organizations, ${ORGANIZATION_SCALE.users} users)`,
    result.rows,
    [
      "Rows beyond the bench user's organization are copies, inserted by SQL, of the rows each library wrote itself through its API.",
      "list-users searches a different email each request (contains, 20 per page, with the total): a scan of the user table on both sides; printed without a target.",
    ],
  );
}
