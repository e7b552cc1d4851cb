import { endpoint, sessionMiddleware } from "@latchkey/core";
import { assertClientPrivilege } from "../client-privileges.js";
import { sessionReference } from "../client-owner.js";
import { NO_STORE, withNoStore } from "../oauth-error.js";
import type { ResolvedOAuthOptions } from "../options.js";
import { readClientMetadata } from "../registration-body.js";
import { registerClient } from "../registration.js";

/** `POST /oauth2/create-client`: a signed-in user registers a client it owns; 201, the secret shown once, `no-store`. */
export function createClientEndpoint(options: ResolvedOAuthOptions) {
  return endpoint("/oauth2/create-client", { method: "POST", use: [sessionMiddleware] }, async (ctx) => {
    try {
      const metadata = readClientMetadata(ctx.body);
      await assertClientPrivilege(ctx, options, ctx.context.session, "create");
      const answer = await registerClient(ctx.context, options, metadata, "managed", { userId: ctx.context.session.session.userId, referenceId: await sessionReference(options, ctx.context.session) });
      for (const [name, value] of Object.entries(NO_STORE)) ctx.setHeader(name, value);
      ctx.status = 201;
      return answer;
    } catch (error) {
      throw withNoStore(error);
    }
  });
}
