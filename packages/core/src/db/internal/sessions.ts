import type { Session, User } from "../models.js";
import type { InternalAdapterDeps, Writes } from "./writes.js";
import { generateId } from "../../crypto/random.js";

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

/** Session operations on the database. */
export function createSessionOps(deps: InternalAdapterDeps, writes: Writes) {
  const { adapter } = deps;
  const byToken = (token: string) => [{ field: "token", value: token }];
  return {
    async createSession(userId: string, dontRememberMe: boolean, client: SessionClient = {}, ctx?: unknown, extra: Partial<Session> = {}) {
      const now = Date.now();
      const lifetime = dontRememberMe ? DONT_REMEMBER_SECONDS : deps.sessionExpiresIn;
      return writes.create<Session>(
        "session",
        {
          // The reference stores "" rather than NULL when the client detail is unknown.
          ipAddress: client.ipAddress ?? "",
          userAgent: client.userAgent ?? "",
          ...extra,
          userId,
          token: generateId(32),
          expiresAt: new Date(now + lifetime * 1000),
          createdAt: new Date(now),
          updatedAt: new Date(now),
        },
        ctx,
      );
    },

    async findSession(token: string): Promise<SessionWithUser | null> {
      const session = await adapter.findOne<Session>({ model: "session", where: byToken(token) });
      if (!session) return null;
      const user = await adapter.findOne<User>({ model: "user", where: [{ field: "id", value: session.userId }] });
      return user ? { session, user } : null;
    },

    /** The user's sessions that have not expired. */
    listSessions: (userId: string) =>
      adapter.findMany<Session>({
        model: "session",
        where: [
          { field: "userId", value: userId },
          { field: "expiresAt", value: new Date(), operator: "gt" },
        ],
      }),

    updateSession: (token: string, data: Partial<Session>, ctx?: unknown) =>
      writes.update<Session>("session", byToken(token), data, ctx),

    deleteSession: (token: string, ctx?: unknown) => writes.delete("session", byToken(token), ctx),

    /** Every session of the user. */
    async deleteUserSessions(userId: string, ctx?: unknown): Promise<void> {
      await writes.deleteMany("session", [{ field: "userId", value: userId }], ctx);
    },

    /** The sessions with these tokens. */
    async deleteSessions(tokens: string[], ctx?: unknown): Promise<void> {
      if (tokens.length) await writes.deleteMany("session", [{ field: "token", value: tokens, operator: "in" }], ctx);
    },
  };
}
