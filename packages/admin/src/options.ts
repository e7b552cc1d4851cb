import type { Role } from "@latchkey/access";
import { defaultRoles } from "@latchkey/access/admin";
import type { AccessControl } from "@latchkey/access";
import type { UserWithRole } from "./schema.js";

type Awaitable<T> = T | Promise<T>;

/** Column renames for the admin fields, the reference's `schema` option. */
export interface AdminSchemaOptions {
  user?: { fields?: { role?: string; banned?: string; banReason?: string; banExpires?: string } };
  session?: { fields?: { impersonatedBy?: string } };
}

/** Options of `admin()`, under the reference's names. */
export interface AdminOptions {
  /**
   * The role new users get, and the role of a user whose `role` is empty.
   * @default "user"
   */
  defaultRole?: string | undefined;
  /**
   * Roles counted as administrators when deciding who may be impersonated; each must be one of
   * `roles` (a `TypeError` at `admin()` otherwise). A string may list several, comma-separated.
   * @default ["admin"]
   */
  adminRoles?: string | string[] | undefined;
  /** The ban reason stored when `ban-user` gives none. @default "No reason" */
  defaultBanReason?: string | undefined;
  /** Seconds a ban lasts when `ban-user` gives no `banExpiresIn`. @default the ban never expires */
  defaultBanExpiresIn?: number | undefined;
  /** Seconds an impersonation session lasts. @default 3600 */
  impersonationSessionDuration?: number | undefined;
  /** The access control the roles were made with (kept for the reference's shape; the roles decide). */
  ac?: AccessControl | undefined;
  /** Role name → role (from `@latchkey/access`). @default `defaultRoles` of `@latchkey/admin/access` */
  roles?: { [name: string]: Role | undefined } | undefined;
  /** Users who pass every permission check whatever their role. @default [] */
  adminUserIds?: string[] | undefined;
  /**
   * The message of the 403 `BANNED_USER` a banned user gets when signing in, or a function of
   * the user that makes it.
   * @default "You have been banned from this application. Please contact support if you believe this is an error."
   */
  bannedUserMessage?: string | ((user: UserWithRole) => Awaitable<string>) | undefined;
  /**
   * Lets anyone with `user:impersonate` impersonate administrators too (the reference marks it
   * deprecated in favour of the `impersonate-admins` permission).
   * @default false
   */
  allowImpersonatingAdmins?: boolean | undefined;
  /** Physical column names for the admin fields. */
  schema?: AdminSchemaOptions | undefined;
}

/** `AdminOptions` with every default applied. */
export interface ResolvedAdminOptions {
  defaultRole: string;
  adminRoles: string[];
  defaultBanReason: string | undefined;
  defaultBanExpiresIn: number | undefined;
  impersonationSessionDuration: number;
  /** The configured roles, or undefined when the defaults apply (the reference then accepts any role name). */
  customRoles: { [name: string]: Role | undefined } | undefined;
  roles: { [name: string]: Role | undefined };
  adminUserIds: readonly string[];
  bannedUserMessage: NonNullable<AdminOptions["bannedUserMessage"]>;
  allowImpersonatingAdmins: boolean;
  schema: AdminSchemaOptions;
}

export const DEFAULT_BANNED_USER_MESSAGE =
  "You have been banned from this application. Please contact support if you believe this is an error.";

/** A non-negative finite number of seconds, or undefined; anything else is a `TypeError`. */
function seconds(name: string, value: number | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
    throw new TypeError(`admin: ${name} must be a positive number of seconds`);
  }
  return value;
}

/** Applies the defaults once, when the plugin is made; misconfiguration is a `TypeError`. */
export function resolveAdminOptions(options: AdminOptions = {}): ResolvedAdminOptions {
  const roles = options.roles ?? defaultRoles;
  const adminRoles = (
    Array.isArray(options.adminRoles) ? options.adminRoles : (options.adminRoles ?? "admin").split(",")
  ).map((r) => r.trim());
  // Reference: an admin role that is not a configured role is refused at start-up (names compared case-insensitively).
  const known = Object.keys(roles).map((r) => r.toLowerCase());
  const unknown = adminRoles.filter((r) => !known.includes(r.toLowerCase()));
  if (unknown.length) {
    throw new TypeError(
      `Invalid admin roles: ${unknown.join(", ")}. Admin roles must be defined in the 'roles' configuration.`,
    );
  }
  const schemaOptions = options.schema ?? {};
  if ((schemaOptions as { user?: { modelName?: unknown } }).user?.modelName) {
    throw new TypeError("admin: schema.user.modelName is not supported; rename the user table in the core options.");
  }
  return {
    defaultRole: options.defaultRole ?? "user",
    adminRoles,
    defaultBanReason: options.defaultBanReason,
    defaultBanExpiresIn: seconds("defaultBanExpiresIn", options.defaultBanExpiresIn),
    impersonationSessionDuration: seconds("impersonationSessionDuration", options.impersonationSessionDuration) ?? 3600,
    customRoles: options.roles,
    roles,
    adminUserIds: options.adminUserIds ?? [],
    bannedUserMessage: options.bannedUserMessage ?? DEFAULT_BANNED_USER_MESSAGE,
    allowImpersonatingAdmins: options.allowImpersonatingAdmins === true,
    schema: schemaOptions,
  };
}
