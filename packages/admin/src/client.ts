// Browser-safe entry (`@latchkey/admin/client`): the admin routes as `@latchkey/client`
// methods under the reference client's names, and the client-side role check.
import type { AuthorizeRequest, Role } from "@latchkey/access";
import { adminAc, userAc } from "@latchkey/access/admin";
import type { Call, ClientPlugin, ClientResult, QueryValue } from "@latchkey/client";

/** A user as the admin routes answer it (dates as JSON strings). */
export type AdminUser = {
  id: string;
  email: string;
  name: string;
  role?: string | null;
  banned?: boolean | null;
  banReason?: string | null;
  banExpires?: string | null;
} & Record<string, unknown>;

/** A session as the admin routes answer it. */
export type AdminSessionRow = {
  id: string;
  token: string;
  userId: string;
  expiresAt: string;
  impersonatedBy?: string | null;
} & Record<string, unknown>;

/** The query of `listUsers`. */
export interface ListUsersQuery {
  searchValue?: string;
  searchField?: "email" | "name";
  searchOperator?: "contains" | "starts_with" | "ends_with";
  limit?: number | string;
  offset?: number | string;
  sortBy?: string;
  sortDirection?: "asc" | "desc";
  filterField?: string;
  filterValue?: string | number | boolean;
  filterOperator?: "eq" | "ne" | "lt" | "lte" | "gt" | "gte" | "contains" | "starts_with" | "ends_with";
}

type R<T> = Promise<ClientResult<T>>;

/** The methods the client gains (`client.admin.*`), as the reference's `adminClient()` names them. */
export interface AdminClientMethods {
  admin: {
    setRole(body: { userId: string; role: string | string[] }): R<{ user: AdminUser }>;
    getUser(args: { query: { id: string } }): R<AdminUser>;
    createUser(body: { email: string; password?: string; name: string; role?: string | string[]; data?: Record<string, unknown> }): R<{ user: AdminUser }>;
    updateUser(body: { userId: string; data: Record<string, unknown> }): R<AdminUser>;
    listUsers(args?: { query?: ListUsersQuery }): R<{ users: AdminUser[]; total: number; limit?: number; offset?: number }>;
    listUserSessions(body: { userId: string }): R<{ sessions: AdminSessionRow[] }>;
    unbanUser(body: { userId: string }): R<{ user: AdminUser }>;
    /** `banExpiresIn` is seconds. */
    banUser(body: { userId: string; banReason?: string; banExpiresIn?: number }): R<{ user: AdminUser }>;
    impersonateUser(body: { userId: string }): R<{ session: AdminSessionRow; user: AdminUser }>;
    stopImpersonating(): R<{ session: AdminSessionRow; user: AdminUser }>;
    revokeUserSession(body: { sessionToken: string }): R<{ success: boolean }>;
    revokeUserSessions(body: { userId: string }): R<{ success: boolean }>;
    removeUser(body: { userId: string }): R<{ success: boolean }>;
    setUserPassword(body: { userId: string; newPassword: string }): R<{ status: boolean }>;
    hasPermission(body: { permissions: Record<string, string[]>; userId?: string; role?: string }): R<{ error: null; success: boolean }>;
    /** Checks a role against the client's role list without a request (the reference's `checkRolePermission`). */
    checkRolePermission(data: { role: string; permissions: AuthorizeRequest }): boolean;
  };
}

/** Options of `adminClient()`: the same `roles` the server uses, for `checkRolePermission`. */
export interface AdminClientOptions {
  roles?: { [name: string]: Role | undefined };
  ac?: unknown;
}

/**
 * The client plugin for `admin()`.
 *
 * @example
 * const client = createAuthClient({ baseURL, plugins: [adminClient()] });
 * const { data } = await client.admin.listUsers({ query: { searchValue: "ann", limit: 20 } });
 */
export const adminClient = (options: AdminClientOptions = {}): ClientPlugin<AdminClientMethods> & { id: "admin-client" } => {
  const roles: { [name: string]: Role | undefined } = { admin: adminAc, user: userAc, ...options.roles };
  return {
    id: "admin-client",
    methods: (call: Call) => {
      const post = <T>(path: string, body?: unknown): R<T> => call<T>(`/admin/${path}`, { method: "POST", body });
      return {
        admin: {
          setRole: (body) => post("set-role", body),
          getUser: ({ query }) => call("/admin/get-user", { method: "GET", query }),
          createUser: (body) => post("create-user", body),
          updateUser: (body) => post("update-user", body),
          listUsers: (args) => call("/admin/list-users", { method: "GET", query: (args?.query ?? {}) as Record<string, QueryValue> }),
          listUserSessions: (body) => post("list-user-sessions", body),
          unbanUser: (body) => post("unban-user", body),
          banUser: (body) => post("ban-user", body),
          impersonateUser: (body) => post("impersonate-user", body),
          stopImpersonating: () => post("stop-impersonating"),
          revokeUserSession: (body) => post("revoke-user-session", body),
          revokeUserSessions: (body) => post("revoke-user-sessions", body),
          removeUser: (body) => post("remove-user", body),
          setUserPassword: (body) => post("set-user-password", body),
          hasPermission: (body) => post("has-permission", body),
          checkRolePermission: ({ role, permissions }) =>
            (role || "user").split(",").some((name) => {
              const found = Object.hasOwn(roles, name) ? roles[name] : undefined;
              return !!found?.authorize(permissions).success;
            }),
        },
      };
    },
  };
};
