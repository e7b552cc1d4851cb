import type { ResolvedSchema } from "../field.js";
import type { Session, User } from "../models.js";
import { parseStoredJSON, ttlSeconds, type SecondaryStorage } from "../secondary-storage.js";
import { isValidDate, reviveDates } from "./stored-dates.js";

/** One entry of `active-sessions-<userId>`: a session token and its expiry in epoch ms. */
export interface ActiveSessionRef {
  token: string;
  expiresAt: number;
}

interface StoredSession {
  session: Record<string, unknown>;
  user: Record<string, unknown>;
}

const SESSION_DATES = ["expiresAt", "createdAt", "updatedAt"] as const;
const USER_DATES = ["createdAt", "updatedAt"] as const;

/** Key of the user's active-session list (reference core.md §2.5). */
export const activeSessionsKey = (userId: string): string => `active-sessions-${userId}`;

/**
 * Sessions in secondary storage, in the reference's layout: `<token>` holds
 * `{"session":…,"user":…}` (dates as ISO strings) until the session expires, and
 * `active-sessions-<userId>` a list of `{token, expiresAt}` sorted by expiry, kept until the
 * furthest one. Read-modify-write of the list is not atomic, as in the reference: two
 * concurrent sign-ins of one user may drop a list entry (the session itself stays valid).
 */
export function createSessionCache(storage: SecondaryStorage, schema: ResolvedSchema) {
  const readList = async (userId: string): Promise<ActiveSessionRef[]> => {
    const list = parseStoredJSON<unknown>(await storage.get(activeSessionsKey(userId)));
    if (!Array.isArray(list)) return [];
    return list.filter(
      (r): r is ActiveSessionRef =>
        !!r &&
        typeof r === "object" &&
        typeof (r as ActiveSessionRef).token === "string" &&
        typeof (r as ActiveSessionRef).expiresAt === "number",
    );
  };

  /** Writes the live entries sorted by expiry, kept until the furthest; deletes an empty list. */
  const writeList = async (userId: string, refs: ActiveSessionRef[], now: number): Promise<void> => {
    const live = refs.filter((r) => r.expiresAt > now).sort((a, b) => a.expiresAt - b.expiresAt);
    const ttl = ttlSeconds(live.at(-1)?.expiresAt ?? 0, now);
    if (live.length && ttl > 0) await storage.set(activeSessionsKey(userId), JSON.stringify(live), ttl);
    else await storage.delete(activeSessionsKey(userId));
  };

  /** The raw stored pair, or null when absent or not a session (a corrupt entry reads as absent). */
  const readRaw = async (token: string): Promise<StoredSession | null> => {
    const stored = parseStoredJSON<StoredSession>(await storage.get(token));
    if (
      !stored ||
      typeof stored.session !== "object" ||
      typeof stored.user !== "object" ||
      !stored.session ||
      !stored.user
    )
      return null;
    return stored;
  };

  const revive = (stored: StoredSession): { session: Session; user: User } | null => {
    const session = reviveDates<Session>(schema, "session", stored.session, SESSION_DATES);
    const user = reviveDates<User>(schema, "user", stored.user, USER_DATES);
    if (
      typeof session.token !== "string" ||
      typeof session.userId !== "string" ||
      !isValidDate(session.expiresAt)
    )
      return null;
    return typeof user.id === "string" ? { session, user } : null;
  };

  const write = async (
    token: string,
    pair: { session: unknown; user: unknown },
    expiresAt: Date,
    now: number,
  ): Promise<boolean> => {
    const ttl = ttlSeconds(expiresAt, now);
    // Never written with a TTL of 0: some stores (the reference's Redis storage) read 0 as "keep forever".
    if (ttl <= 0) return false;
    await storage.set(token, JSON.stringify(pair), ttl);
    return true;
  };

  /** The session and user stored under `token`, dates as `Date`s. */
  const find = async (token: string): Promise<{ session: Session; user: User } | null> => {
    const stored = await readRaw(token);
    return stored ? revive(stored) : null;
  };

  /** Deletes the sessions and their entries in their users' lists. */
  const remove = async (tokens: string[]): Promise<void> => {
    const byUser = new Map<string, Set<string>>();
    for (const token of tokens) {
      const userId = (await readRaw(token))?.session.userId;
      if (typeof userId === "string") byUser.set(userId, (byUser.get(userId) ?? new Set()).add(token));
      await storage.delete(token);
    }
    const now = Date.now();
    for (const [userId, gone] of byUser) {
      await writeList(
        userId,
        (await readList(userId)).filter((r) => !gone.has(r.token)),
        now,
      );
    }
  };

  return {
    find,

    /** Stores a new session with its user and adds it to the user's list. */
    async add(session: Session, user: User | null): Promise<void> {
      const now = Date.now();
      const refs = (await readList(session.userId)).filter((r) => r.token !== session.token);
      await writeList(
        session.userId,
        [...refs, { token: session.token, expiresAt: session.expiresAt.getTime() }],
        now,
      );
      await write(session.token, { session, user }, session.expiresAt, now);
    },

    /**
     * Merges `data` into the stored session, re-stores it until its (new) expiry and moves its
     * list entry; null when the token is not stored.
     */
    async update(token: string, data: Partial<Session>): Promise<Session | null> {
      const stored = await readRaw(token);
      const current = stored ? revive(stored) : null;
      if (!stored || !current) return null;
      const session: Session = {
        ...current.session,
        ...data,
        createdAt: current.session.createdAt,
      } as Session;
      const now = Date.now();
      if (await write(token, { session, user: stored.user }, session.expiresAt, now)) {
        const refs = (await readList(session.userId)).filter((r) => r.token !== token);
        await writeList(session.userId, [...refs, { token, expiresAt: session.expiresAt.getTime() }], now);
      } else {
        await remove([token]);
      }
      return session;
    },

    remove,

    /** The list entries of the user (live or not), for a later `removeUser`. */
    references: readList,

    /** Deletes the listed sessions of the user and prunes the list (entries added meanwhile stay). */
    async removeUser(userId: string, refs: ActiveSessionRef[]): Promise<void> {
      const gone = new Set(refs.map((r) => r.token));
      for (const token of gone) await storage.delete(token);
      await writeList(
        userId,
        (await readList(userId)).filter((r) => !gone.has(r.token)),
        Date.now(),
      );
    },

    /** The user's live stored sessions, each once, in list order. */
    async list(userId: string): Promise<Session[]> {
      const now = Date.now();
      const seen = new Set<string>();
      const sessions: Session[] = [];
      for (const ref of await readList(userId)) {
        if (ref.expiresAt <= now || seen.has(ref.token)) continue;
        seen.add(ref.token);
        const found = await find(ref.token);
        if (found && found.session.expiresAt.getTime() > now) sessions.push(found.session);
      }
      return sessions;
    },

    /** Rewrites the user inside each of the user's stored sessions (after a profile change). */
    async refreshUser(user: User): Promise<void> {
      const now = Date.now();
      for (const ref of await readList(user.id)) {
        if (ref.expiresAt <= now) continue;
        const stored = await readRaw(ref.token);
        const current = stored ? revive(stored) : null;
        if (stored && current)
          await write(ref.token, { session: stored.session, user }, current.session.expiresAt, now);
      }
    },
  };
}

/** The session cache over one storage and schema. */
export type SessionCache = ReturnType<typeof createSessionCache>;
