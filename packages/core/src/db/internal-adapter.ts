import type { Adapter, Row, Where } from "./adapter.js";
import type { ResolvedSchema } from "./field.js";
import type { Account, Session, User } from "./models.js";
import { runAfter, runBefore, type DatabaseHooks } from "./database-hooks.js";
import { BetterAuthError } from "../errors/api-error.js";
import { generateId } from "../crypto/random.js";

/** What the internal adapter needs from the context. */
export interface InternalAdapterDeps {
  adapter: Adapter;
  schema: ResolvedSchema;
  hooks: DatabaseHooks[];
  generateId: (args: { model: string; size?: number }) => string | false;
  sessionExpiresIn: number;
}

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
 * Model-level storage operations core routes use: ids, field defaults, `onUpdate` values and
 * database hooks are applied here, so adapters only store and load.
 */
export function createInternalAdapter(deps: InternalAdapterDeps) {
  const { adapter, schema, hooks } = deps;

  const withDefaults = (model: string, data: Row): Row => {
    const out: Row = {};
    const id = deps.generateId({ model });
    if (id !== false) out.id = id;
    for (const [field, attr] of Object.entries(schema[model]?.fields ?? {})) {
      if (attr.defaultValue === undefined) continue;
      out[field] = typeof attr.defaultValue === "function" ? (attr.defaultValue as () => unknown)() : attr.defaultValue;
    }
    for (const [key, value] of Object.entries(data)) if (value !== undefined) out[key] = value;
    return out;
  };

  const withOnUpdate = (model: string, data: Row): Row => {
    const out: Row = {};
    for (const [field, attr] of Object.entries(schema[model]?.fields ?? {})) {
      if (attr.onUpdate && data[field] === undefined) out[field] = attr.onUpdate();
    }
    return { ...out, ...data };
  };

  async function create<T>(model: string, data: Row, ctx?: unknown): Promise<T | null> {
    const prepared = await runBefore(hooks, model, "create", withDefaults(model, data), ctx ?? null);
    if (!prepared) return null;
    const row = await adapter.create({ model, data: prepared });
    await runAfter(hooks, model, "create", row, ctx ?? null);
    return row as T;
  }

  async function update<T>(model: string, where: Where[], data: Row, ctx?: unknown): Promise<T | null> {
    const prepared = await runBefore(hooks, model, "update", withOnUpdate(model, data), ctx ?? null);
    if (!prepared) return null;
    const row = await adapter.update({ model, where, update: prepared });
    if (row) await runAfter(hooks, model, "update", row, ctx ?? null);
    return row as T | null;
  }

  async function remove(model: string, where: Where[], ctx?: unknown): Promise<void> {
    const hasHooks = hooks.some((h) => h[model]?.delete);
    const row = hasHooks ? await adapter.findOne({ model, where }) : null;
    if (hasHooks) {
      if (!row) return;
      if (!(await runBefore(hooks, model, "delete", row, ctx ?? null))) return;
    }
    await adapter.delete({ model, where });
    if (row) await runAfter(hooks, model, "delete", row, ctx ?? null);
  }

  return {
    create,
    update,
    delete: remove,

    createUser: (data: Partial<User> & { email: string; name: string }, ctx?: unknown) =>
      create<User>("user", { ...data, email: data.email.toLowerCase() }, ctx),

    findUserById: (id: string) => adapter.findOne<User>({ model: "user", where: [{ field: "id", value: id }] }),

    async findUserByEmail(email: string, opts: { includeAccounts?: boolean } = {}) {
      const user = await adapter.findOne<User>({ model: "user", where: [{ field: "email", value: email.toLowerCase() }] });
      if (!user) return null;
      const accounts = opts.includeAccounts
        ? await adapter.findMany<Account>({ model: "account", where: [{ field: "userId", value: user.id }] })
        : [];
      return { user, accounts };
    },

    linkAccount: (data: Partial<Account> & { userId: string; providerId: string; accountId: string }, ctx?: unknown) =>
      create<Account>("account", { ...data, updatedAt: new Date() }, ctx),

    findAccounts: (userId: string) =>
      adapter.findMany<Account>({ model: "account", where: [{ field: "userId", value: userId }] }),

    async createSession(userId: string, dontRememberMe: boolean, client: SessionClient = {}, ctx?: unknown) {
      const now = Date.now();
      const lifetime = dontRememberMe ? DONT_REMEMBER_SECONDS : deps.sessionExpiresIn;
      return create<Session>(
        "session",
        {
          userId,
          token: generateId(32),
          expiresAt: new Date(now + lifetime * 1000),
          // The reference stores "" rather than NULL when the client detail is unknown.
          ipAddress: client.ipAddress ?? "",
          userAgent: client.userAgent ?? "",
          createdAt: new Date(now),
          updatedAt: new Date(now),
        },
        ctx,
      );
    },

    async findSession(token: string): Promise<SessionWithUser | null> {
      const session = await adapter.findOne<Session>({ model: "session", where: [{ field: "token", value: token }] });
      if (!session) return null;
      const user = await adapter.findOne<User>({ model: "user", where: [{ field: "id", value: session.userId }] });
      return user ? { session, user } : null;
    },

    updateSession: (token: string, data: Partial<Session>, ctx?: unknown) =>
      update<Session>("session", [{ field: "token", value: token }], data, ctx),

    deleteSession: (token: string, ctx?: unknown) => remove("session", [{ field: "token", value: token }], ctx),

    async deleteSessions(userId: string): Promise<void> {
      await adapter.deleteMany({ model: "session", where: [{ field: "userId", value: userId }] });
    },

    /** Atomic guarded counter update; an empty change is a programming error (spec: Errors). */
    incrementOne<T extends Row = Row>(args: { model: string; where: Where[]; increment: Record<string, number>; set?: Row }) {
      if (!Object.keys(args.increment).length && !Object.keys(args.set ?? {}).length) {
        throw new BetterAuthError("incrementOne needs at least one field in `increment` or `set`.");
      }
      return adapter.incrementOne<T>(args);
    },
  };
}

export type InternalAdapter = ReturnType<typeof createInternalAdapter>;
