import { decryptOAuthToken, type Adapter, type AuthContext } from "@latchkey/core";
import { bearer, fetchJSON } from "./fetch-json.js";
import { idTokenClaims, textClaim } from "./id-token-claims.js";

/** Options of {@link migrateMicrosoftAccountIds}. */
export interface MigrateMicrosoftAccountIdsOptions {
  /** The Latchkey instance whose database is migrated (its adapter, secret and `account.encryptOAuthTokens`). */
  auth: { $context: AuthContext | Promise<AuthContext> };
  /** Report what would change and write nothing. @default false */
  dryRun?: boolean | undefined;
  /** @default "microsoft" */
  providerId?: string | undefined;
  /** Microsoft Graph base URL (sovereign clouds: e.g. `https://graph.microsoft.us/v1.0`). @default "https://graph.microsoft.com/v1.0" */
  graphEndpoint?: string | undefined;
  /** The clock that decides whether a stored access token is still valid. @default () => new Date() */
  now?: (() => Date) | undefined;
}

/** Why a row could not be given its `oid`. */
export type UnresolvedReason =
  | "no-oid-in-id-token-and-no-access-token"
  | "access-token-expired"
  | "access-token-undecryptable"
  | "graph-request-failed"
  | "graph-id-not-an-oid";

/** What a migration run found and did. Holds row ids and account ids, never tokens. */
export interface MicrosoftMigrationReport {
  dryRun: boolean;
  /** True when the changes were written (never in a dry run or with conflicts). */
  applied: boolean;
  /** Rows of the provider examined. */
  total: number;
  /** Rows whose accountId changes (or would), and where the `oid` came from. */
  changed: { id: string; from: string; to: string; source: "id-token" | "graph" }[];
  /** Rows that already hold their `oid` (a second run finds only these). */
  unchanged: string[];
  /** Rows left as they are: they keep the old id until the user signs in again (use `accountIdClaim: "sub"` meanwhile). */
  unresolved: { id: string; reason: UnresolvedReason }[];
  /** Account ids that would be shared by several rows; any conflict stops the whole run. */
  conflicts: { accountId: string; rowIds: string[] }[];
}

interface AccountRow {
  id: string;
  accountId: string;
  idToken?: string | null;
  accessToken?: string | null;
  accessTokenExpiresAt?: Date | null;
}

const PAGE = 500;

async function providerRows(adapter: Adapter, providerId: string): Promise<AccountRow[]> {
  const rows: AccountRow[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const page = await adapter.findMany<AccountRow & Record<string, unknown>>({
      model: "account",
      where: [{ field: "providerId", value: providerId }],
      sortBy: { field: "id", direction: "asc" },
      limit: PAGE,
      offset,
    });
    rows.push(...page);
    if (page.length < PAGE) return rows;
  }
}

/** The row's `oid`: from its ID token (verified when stored, so only decoded), else from Graph `/me`. */
async function resolveOid(
  row: AccountRow,
  ctx: AuthContext,
  graph: string,
  now: Date,
): Promise<{ oid: string; source: "id-token" | "graph" } | { reason: UnresolvedReason }> {
  // Spec, Directory-identity provider 5: the payload is the middle, base64url part.
  const fromToken = textClaim(idTokenClaims(row.idToken ?? undefined)?.oid);
  if (fromToken) return { oid: fromToken, source: "id-token" };
  if (!row.accessToken) return { reason: "no-oid-in-id-token-and-no-access-token" };
  if (row.accessTokenExpiresAt && row.accessTokenExpiresAt.getTime() <= now.getTime()) {
    return { reason: "access-token-expired" };
  }
  let accessToken: string | undefined;
  try {
    accessToken = await decryptOAuthToken(row.accessToken, ctx);
  } catch {
    return { reason: "access-token-undecryptable" };
  }
  const me = await fetchJSON<{ id?: unknown }>(`${graph}/me`, { headers: bearer(accessToken) ?? {} });
  const id = textClaim(me?.id);
  if (!id) return { reason: "graph-request-failed" };
  const oid = oidOfGraphId(id);
  return oid ? { oid, source: "graph" } : { reason: "graph-id-not-an-oid" };
}

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const CONSUMER_ID = /^[0-9a-f]{16}$/i;

/**
 * The `oid` a Graph user id stands for. Work and school accounts: the id is the oid (a GUID).
 * Personal accounts: Graph answers the 16-hex account id, which their tokens carry as the
 * oid `00000000-0000-0000-xxxx-xxxxxxxxxxxx` (lower case). Anything else is not trusted.
 */
export function oidOfGraphId(id: string): string | null {
  if (GUID.test(id)) return id.toLowerCase();
  if (CONSUMER_ID.test(id)) return `00000000-0000-0000-${id.slice(0, 4)}-${id.slice(4)}`.toLowerCase();
  return null;
}

/** Account ids held by more than one row once `changes` apply. */
function findConflicts(
  rows: { id: string; accountId: string }[],
  changes: Map<string, string>,
): { accountId: string; rowIds: string[] }[] {
  const byId = new Map<string, string[]>();
  for (const row of rows) {
    const accountId = changes.get(row.id) ?? row.accountId;
    byId.set(accountId, [...(byId.get(accountId) ?? []), row.id]);
  }
  return [...byId].filter(([, ids]) => ids.length > 1).map(([accountId, rowIds]) => ({ accountId, rowIds }));
}

/**
 * Re-keys Microsoft (directory-identity) accounts from the 1.0 `sub` to the `oid` claim (spec,
 * Directory-identity provider 5-6; Upgrade order 3). For each `account` row of the provider,
 * the `oid` is read from the stored ID token's payload, else fetched from Graph `/me` (its
 * `id`) with the stored access token while it is valid (decrypted when
 * `account.encryptOAuthTokens` is on); rows where neither works are left and reported. If the
 * result would give two rows of the provider one accountId, nothing is written and the
 * conflicts are reported. Writes happen in one transaction, after the conflict check is
 * repeated inside it against the rows as they are then. Running it again changes nothing.
 *
 * @example
 * const report = await migrateMicrosoftAccountIds({ auth, dryRun: true });
 */
export async function migrateMicrosoftAccountIds(
  options: MigrateMicrosoftAccountIdsOptions,
): Promise<MicrosoftMigrationReport> {
  const ctx = await options.auth.$context;
  const providerId = options.providerId ?? "microsoft";
  const graph = (options.graphEndpoint ?? "https://graph.microsoft.com/v1.0").replace(/\/+$/, "");
  const now = options.now?.() ?? new Date();
  const dryRun = options.dryRun === true;
  const rows = await providerRows(ctx.adapter, providerId);
  const report: MicrosoftMigrationReport = {
    dryRun,
    applied: false,
    total: rows.length,
    changed: [],
    unchanged: [],
    unresolved: [],
    conflicts: [],
  };
  const changes = new Map<string, string>();
  for (const row of rows) {
    const result = await resolveOid(row, ctx, graph, now);
    if ("reason" in result) report.unresolved.push({ id: row.id, reason: result.reason });
    else if (result.oid === row.accountId) report.unchanged.push(row.id);
    else {
      changes.set(row.id, result.oid);
      report.changed.push({ id: row.id, from: row.accountId, to: result.oid, source: result.source });
    }
  }
  report.conflicts = findConflicts(rows, changes);
  if (dryRun || report.conflicts.length || changes.size === 0) return report;

  report.conflicts = await ctx.adapter.transaction(async (trx) => {
    // Sign-ins may have added or re-keyed rows while Graph was asked: check again, then write.
    const current = await providerRows(trx, providerId);
    const conflicts = findConflicts(current, changes);
    if (conflicts.length) return conflicts;
    for (const [id, accountId] of changes) {
      await trx.update({
        model: "account",
        where: [{ field: "id", value: id }],
        update: { accountId, updatedAt: now },
      });
    }
    return [];
  });
  report.applied = report.conflicts.length === 0;
  return report;
}
