import type { DatabaseHookContext } from "../database-hooks.js";
import type { Where } from "../adapter.js";
import type { Session, User } from "../models.js";
import type { InternalAdapterDeps, Writes } from "./writes.js";
import { generateId } from "../../crypto/random.js";
import { runAfter, runBefore } from "../database-hooks.js";
import { createSessionCache } from "./session-cache.js";
import { prepareStoredRow, storageRowId, withOnUpdate } from "./row-prep.js";

/** Client details stored with a new session. */
export interface SessionClient {
  ipAddress?: string | null;
  userAgent?: string | null;
}

/** Session and user read together. */
export interface SessionWithUser {
  session: Session;
  user: User;
}

/** Seconds a session lasts when the user chose not to be remembered (reference: one day). */
const DONT_REMEMBER_SECONDS = 86_400;

/**
 * Session operations. Without secondary storage they use the database only. With it
 * (reference internal adapter): sessions are written to the storage, and to the database too
 * when `storeSessionInDatabase`; reads try the storage first; revocations clear both stores
 * and the user's active-session list. `preserveSessionInDatabase` ends rows instead of deleting.
 */
export function createSessionOps(deps: InternalAdapterDeps, writes: Writes) {
  const { adapter, schema, hooks, stores } = deps;
  const storage = stores?.secondaryStorage;
  const cache = storage ? createSessionCache(storage, schema) : null;
  const inDatabase = stores?.sessionInDatabase ?? true;
  const preserve = !!cache && inDatabase && !!stores?.preserveSessionInDatabase;
  const byToken = (token: string): Where[] => [{ field: "token", value: token }];

  const findInDatabase = async (token: string): Promise<SessionWithUser | null> => {
    // One join where the adapter offers it: this read runs on every authenticated request.
    if (adapter.findSessionWithUser) return adapter.findSessionWithUser<Session, User>(token);
    const session = await adapter.findOne<Session>({ model: "session", where: byToken(token) });
    if (!session) return null;
    const user = await adapter.findOne<User>({
      model: "user",
      where: [{ field: "id", value: session.userId }],
    });
    return user ? { session, user } : null;
  };

  /**
   * `preserveSessionInDatabase`: the live rows matched by `where` get `expiresAt = now` instead
   * of being deleted, with the delete hooks still run (a revocation must still reach hooks that
   * revoke tokens). Expired rows are not matched, so ending twice never re-runs the hooks.
   */
  const endPreserved = async (where: Where[], ctx: DatabaseHookContext | undefined): Promise<void> => {
    const now = new Date();
    const live = [...where, { field: "expiresAt", value: now, operator: "gt" as const }];
    for (const row of await adapter.findMany<Session>({ model: "session", where: live })) {
      if (!(await runBefore(hooks, "session", "delete", row, ctx ?? null))) continue;
      await adapter.update({
        model: "session",
        where: [{ field: "id", value: row.id }],
        update: { expiresAt: now, updatedAt: now },
      });
      await runAfter(hooks, "session", "delete", row, ctx ?? null);
    }
  };

  const deleteSessions = async (tokens: string[], ctx?: DatabaseHookContext): Promise<void> => {
    if (!tokens.length) return;
    const where: Where[] = [{ field: "token", value: tokens, operator: "in" }];
    if (cache) {
      await cache.remove(tokens);
      if (!inDatabase) return;
      if (preserve) return endPreserved(where, ctx);
    }
    await writes.deleteMany("session", where, ctx);
  };

  return {
    async createSession(
      userId: string,
      dontRememberMe: boolean,
      client: SessionClient = {},
      ctx?: DatabaseHookContext,
      extra: Partial<Session> = {},
    ) {
      const now = Date.now();
      const lifetime = dontRememberMe ? DONT_REMEMBER_SECONDS : deps.sessionExpiresIn;
      const data = {
        // The reference stores "" rather than NULL when the client detail is unknown.
        ipAddress: client.ipAddress ?? "",
        userAgent: client.userAgent ?? "",
        ...extra,
        userId,
        token: generateId(32),
        // A caller may fix the expiry (admin impersonation lasts its own duration).
        expiresAt: extra.expiresAt ?? new Date(now + lifetime * 1000),
        createdAt: new Date(now),
        updatedAt: new Date(now),
      };
      if (!cache) return writes.create<Session>("session", data, ctx);
      const newId = inDatabase ? deps.generateId : storageRowId(deps.generateId);
      const prepared = await runBefore(
        hooks,
        "session",
        "create",
        prepareStoredRow(schema, "session", newId, data),
        ctx ?? null,
      );
      if (!prepared) return null;
      const session = (
        inDatabase ? await adapter.create({ model: "session", data: prepared }) : prepared
      ) as Session;
      const user = await adapter.findOne<User>({ model: "user", where: [{ field: "id", value: userId }] });
      await cache.add(session, user);
      await runAfter(hooks, "session", "create", session, ctx ?? null);
      return session;
    },

    /**
     * The session and its user. With secondary storage the stored copy wins; the database is
     * asked only when sessions are also stored there and not preserved (a preserved row
     * outlives its revocation, so it must not bring the session back).
     */
    async findSession(token: string): Promise<SessionWithUser | null> {
      if (cache) {
        const found = await cache.find(token);
        if (found || !inDatabase || preserve) return found;
      }
      return findInDatabase(token);
    },

    /** The user's sessions that have not expired. */
    async listSessions(userId: string): Promise<Session[]> {
      if (cache) return cache.list(userId);
      return adapter.findMany<Session>({
        model: "session",
        where: [
          { field: "userId", value: userId },
          { field: "expiresAt", value: new Date(), operator: "gt" },
        ],
      });
    },

    /** Updates the session; null when it does not exist (or a before hook vetoed). */
    async updateSession(token: string, data: Partial<Session>, ctx?: DatabaseHookContext): Promise<Session | null> {
      if (!cache) return writes.update<Session>("session", byToken(token), data, ctx);
      const prepared = await runBefore(
        hooks,
        "session",
        "update",
        withOnUpdate(schema, "session", data),
        ctx ?? null,
      );
      if (!prepared) return null;
      const cached = await cache.update(token, prepared as Partial<Session>);
      const row = inDatabase
        ? await adapter.update<Session>({ model: "session", where: byToken(token), update: prepared })
        : cached;
      if (row) await runAfter(hooks, "session", "update", row, ctx ?? null);
      return row;
    },

    async deleteSession(token: string, ctx?: DatabaseHookContext): Promise<void> {
      if (cache) {
        await cache.remove([token]);
        // Storage-only sessions have no row, so no delete hooks run (as in the reference).
        if (!inDatabase) return;
        if (preserve) return endPreserved(byToken(token), ctx);
      }
      await writes.delete("session", byToken(token), ctx);
    },

    /** Every session of the user, in both stores. */
    async deleteUserSessions(userId: string, ctx?: DatabaseHookContext): Promise<void> {
      const refs = cache ? await cache.references(userId) : [];
      const byUser: Where[] = [{ field: "userId", value: userId }];
      if (cache && preserve) await endPreserved(byUser, ctx);
      else if (inDatabase) await writes.deleteMany("session", byUser, ctx);
      await cache?.removeUser(userId, refs);
    },

    /** The sessions with these tokens, in both stores. */
    deleteSessions,

    /**
     * The user's sessions created up to `until` (inclusive), in both stores: a revocation that
     * must not reach a session opened after it started (one a concurrent request of the same
     * user just created, with its own proof). A session of the same millisecond goes too.
     */
    async deleteUserSessionsCreatedUntil(userId: string, until: Date, ctx?: DatabaseHookContext): Promise<void> {
      const tokens = new Set<string>();
      if (cache) for (const s of await cache.list(userId)) if (new Date(s.createdAt) <= until) tokens.add(s.token);
      if (inDatabase) {
        const where: Where[] = [
          { field: "userId", value: userId },
          { field: "createdAt", value: until, operator: "lte" },
        ];
        for (const row of await adapter.findMany<Session>({ model: "session", where })) tokens.add(row.token);
      }
      await deleteSessions([...tokens], ctx);
    },

    /**
     * Rewrites the user inside each of the user's sessions in secondary storage, so a profile
     * change shows on the next read (reference `refreshUserSessions`). No-op without storage.
     */
    async refreshUserSessions(user: User): Promise<void> {
      await cache?.refreshUser(user);
    },
  };
}

/**
 * What user operations need to keep stored sessions in step with the user row: whether
 * sessions have database rows, the user re-stored inside each cached session after an update,
 * and the cached sessions dropped after the user is deleted. No-ops without secondary storage.
 */
export function cachedSessionsOf(deps: InternalAdapterDeps) {
  const storage = deps.stores?.secondaryStorage;
  const cache = storage ? createSessionCache(storage, deps.schema) : null;
  return {
    inDatabase: deps.stores?.sessionInDatabase ?? true,
    async refreshed<T extends User | null>(user: T): Promise<T> {
      if (cache && user) await cache.refreshUser(user);
      return user;
    },
    async removeUser(userId: string): Promise<void> {
      if (cache) await cache.removeUser(userId, await cache.references(userId));
    },
  };
}
