import type { DatabaseHookContext } from "../database-hooks.js";
import type { Account, User } from "../models.js";
import type { InternalAdapterDeps, Writes } from "./writes.js";
import { assertValidUserInfo, type UserProvisioningSource } from "../../security/validate-user-info.js";
import { cachedSessionsOf } from "./sessions.js";

/** User and account operations. Emails are stored and looked up lower-cased. */
export function createUserOps(deps: InternalAdapterDeps, writes: Writes) {
  const { adapter } = deps;
  const byId = (id: string) => [{ field: "id", value: id }];
  // Sessions in secondary storage carry a copy of the user: keep it in step (sessions.ts).
  const cached = cachedSessionsOf(deps);
  return {
    /**
     * Creates a user. With `user.validateUserInfo` configured, callers must pass the endpoint
     * context and the provisioning `source` (spec: Social sign-in 11).
     */
    async createUser(data: Partial<User> & { email: string; name: string }, ctx?: DatabaseHookContext, source?: UserProvisioningSource) {
      const user = { ...data, email: data.email.toLowerCase() };
      if (deps.validateUserInfo) await assertValidUserInfo(deps.validateUserInfo, user, source, ctx);
      return writes.create<User>("user", user, ctx);
    },

    findUserById: (id: string) => adapter.findOne<User>({ model: "user", where: byId(id) }),

    async findUserByEmail(email: string, opts: { includeAccounts?: boolean } = {}) {
      const user = await adapter.findOne<User>({ model: "user", where: [{ field: "email", value: email.toLowerCase() }] });
      if (!user) return null;
      const accounts = opts.includeAccounts
        ? await adapter.findMany<Account>({ model: "account", where: [{ field: "userId", value: user.id }] })
        : [];
      return { user, accounts };
    },

    updateUser: async (userId: string, data: Partial<User>, ctx?: DatabaseHookContext) =>
      cached.refreshed(await writes.update<User>("user", byId(userId), { ...data, updatedAt: new Date() }, ctx)),

    updateUserByEmail: async (email: string, data: Partial<User>, ctx?: DatabaseHookContext) =>
      cached.refreshed(await writes.update<User>("user", [{ field: "email", value: email.toLowerCase() }], { ...data, updatedAt: new Date() }, ctx)),

    /** Deletes the user's sessions, accounts, then the user (the reference's order). */
    async deleteUser(userId: string, ctx?: DatabaseHookContext): Promise<void> {
      if (cached.inDatabase) await writes.deleteMany("session", [{ field: "userId", value: userId }], ctx);
      await writes.deleteMany("account", [{ field: "userId", value: userId }], ctx);
      await writes.delete("user", byId(userId), ctx);
      await cached.removeUser(userId);
    },

    linkAccount: (data: Partial<Account> & { userId: string; providerId: string; accountId: string }, ctx?: DatabaseHookContext) =>
      writes.create<Account>("account", { ...data, updatedAt: new Date() }, ctx),

    findAccounts: (userId: string) =>
      adapter.findMany<Account>({ model: "account", where: [{ field: "userId", value: userId }] }),

    findAccount: (id: string) => adapter.findOne<Account>({ model: "account", where: byId(id) }),

    /** The user's password account, if any. */
    async findCredentialAccount(userId: string): Promise<Account | null> {
      const accounts = await adapter.findMany<Account>({
        model: "account",
        where: [
          { field: "userId", value: userId },
          { field: "providerId", value: "credential" },
        ],
      });
      return accounts.find((a) => a.accountId === userId) ?? accounts[0] ?? null;
    },

    updateAccount: (id: string, data: Partial<Account>, ctx?: DatabaseHookContext) =>
      writes.update<Account>("account", byId(id), { ...data, updatedAt: new Date() }, ctx),

    deleteAccount: (id: string, ctx?: DatabaseHookContext) => writes.delete("account", byId(id), ctx),

    /** Sets the password of every credential row of the user. */
    updatePassword: (userId: string, password: string, ctx?: DatabaseHookContext) =>
      writes.updateMany(
        "account",
        [
          { field: "userId", value: userId },
          { field: "providerId", value: "credential" },
        ],
        { password, updatedAt: new Date() },
        ctx,
      ),
  };
}
