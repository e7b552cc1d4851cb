import * as v from "valibot";
import { APIError, endpoint, sessionMiddleware, type LatchkeyPlugin } from "@latchkey/core";

/** Path of the route the smoke configuration rate-limits (relative to the base path). */
export const LIMITED_PATH = "/smoke/limited";

type BuiltinHost = { process?: { getBuiltinModule?: (id: string) => unknown } };

/**
 * Whether this runtime offers node:crypto's scrypt the way core looks for it (crypto/password.ts):
 * reported so each runtime's test states which engine hashed its passwords.
 */
function hasNativeScrypt(): boolean {
  const mod = (globalThis as BuiltinHost).process?.getBuiltinModule?.("node:crypto") as
    { scrypt?: unknown } | undefined;
  return typeof mod?.scrypt === "function";
}

/**
 * The smoke suite's own plugin: a public route, a session-protected route, the rate-limited
 * route, and two TEST-ONLY routes that export and import a stored password hash so a hash made
 * on one runtime can be verified on another. This package is private and never published; no
 * real deployment may expose routes like the last two.
 */
export function smokePlugin(runtime: string): LatchkeyPlugin {
  return {
    id: "smoke",
    endpoints: {
      smokePing: endpoint("/smoke/ping", { method: "GET" }, () => ({
        pong: true,
        runtime,
        nativeScrypt: hasNativeScrypt(),
      })),
      smokeMe: endpoint("/smoke/me", { method: "GET", use: [sessionMiddleware] }, (ctx) => ({
        email: ctx.context.session.user.email,
      })),
      smokeLimited: endpoint(LIMITED_PATH, { method: "GET" }, () => ({ ok: true })),
      smokePasswordHash: endpoint(
        "/smoke/password-hash",
        { method: "GET", query: v.object({ email: v.string() }) },
        async (ctx) => {
          const found = await ctx.context.internalAdapter.findUserByEmail(ctx.query.email, {
            includeAccounts: true,
          });
          const hash = found?.accounts.find((a) => a.providerId === "credential")?.password;
          if (!hash) throw new APIError("NOT_FOUND", { message: "No credential account" });
          return { hash };
        },
      ),
      smokeSeedUser: endpoint(
        "/smoke/seed-user",
        { method: "POST", body: v.object({ email: v.string(), name: v.string(), hash: v.string() }) },
        async (ctx) => {
          const { email, name, hash } = ctx.body;
          const user = await ctx.context.internalAdapter.createUser({
            email,
            name,
            emailVerified: false,
          });
          if (!user) throw new APIError("INTERNAL_SERVER_ERROR", { message: "User not created" });
          // The same account row sign-up writes, with the foreign runtime's hash as the password.
          await ctx.context.internalAdapter.linkAccount({
            userId: user.id,
            providerId: "credential",
            accountId: user.id,
            password: hash,
          });
          return { userId: user.id };
        },
      ),
    },
  };
}
