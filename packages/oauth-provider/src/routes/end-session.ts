import { endpoint } from "@latchkey/core";
import { confirmLogout, readEndSessionRequest, rpInitiatedLogout } from "../end-session.js";
import { noStoreError, withNoStore } from "../oauth-error.js";

/** OIDC RP-Initiated Logout 1.0 §2: parameters in the query (GET) or a form / JSON body (POST). */
export function endSessionEndpoint() {
  return endpoint(
    "/oauth2/end-session",
    { method: ["GET", "POST"], allowedMediaTypes: ["application/x-www-form-urlencoded", "application/json"], formMembers: "all" },
    async (ctx) => {
      try {
        return await rpInitiatedLogout(ctx, readEndSessionRequest(ctx.query, ctx.method === "POST" ? ctx.body : undefined));
      } catch (error) {
        throw withNoStore(error);
      }
    },
  );
}

/** The confirmation form of the provider's logout page posts `action=confirm` here. */
export function endSessionConfirmEndpoint() {
  return endpoint(
    "/oauth2/end-session/confirm",
    { method: "POST", allowedMediaTypes: ["application/x-www-form-urlencoded"], formMembers: "all" },
    async (ctx) => {
      try {
        const action = (ctx.body as Record<string, unknown> | undefined)?.action;
        if (action !== "confirm") throw noStoreError("BAD_REQUEST", "invalid_request", 'action must be "confirm"');
        return await confirmLogout(ctx);
      } catch (error) {
        throw withNoStore(error);
      }
    },
  );
}
