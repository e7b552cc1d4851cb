import { endpoint, sensitiveSessionMiddleware } from "@latchkey/core";
import type { ResolvedTwoFactorOptions, UserWithTwoFactor } from "../options.js";
import { assertPassword, passwordBody } from "../password.js";
import { TWO_FACTOR_MODEL } from "../schema.js";
import { replaceSession } from "../session-swap.js";
import { forgetTrustedDevice } from "../trust-device.js";

/**
 * `POST /two-factor/disable` `{ password }` (needs a session read from storage): turns the
 * flag off, deletes the user's `twoFactor` row, replaces the session, and forgets this
 * browser's trusted device. `{ status: true }`.
 */
export const disableRoute = (options: ResolvedTwoFactorOptions) =>
  endpoint(
    "/two-factor/disable",
    {
      method: "POST",
      body: passwordBody(options.allowPasswordless),
      use: [sensitiveSessionMiddleware],
    },
    async (ctx) => {
      const auth = ctx.context;
      const { session } = auth.session;
      const user = auth.session.user as UserWithTwoFactor;
      await assertPassword(ctx, user.id, ctx.body.password, options.allowPasswordless);
      const updated = await auth.internalAdapter.updateUser(user.id, { twoFactorEnabled: false }, ctx);
      await auth.internalAdapter.deleteMany(TWO_FACTOR_MODEL, [{ field: "userId", value: user.id }], ctx);
      await replaceSession(ctx, session, updated ?? { ...user, twoFactorEnabled: false });
      await forgetTrustedDevice(ctx, options.trustDeviceMaxAge);
      return { status: true };
    },
  );
