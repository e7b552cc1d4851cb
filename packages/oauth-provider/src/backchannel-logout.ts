import { boundedFetch, generateRandomString, getService, type AuthContext, type DatabaseHooks, type Row } from "@latchkey/core";
import { JWT_SIGNER } from "@latchkey/jwt";
import { jwtDisabled, tokenIssuer } from "./issuer.js";
import type { BackchannelLogoutOptions, ResolvedOAuthOptions } from "./options.js";
import { isPublicHost } from "./public-host.js";
import { privateResolutionProblem } from "./resolved-host.js";
import type { OAuthClientRow } from "./schema.js";
import { subjectFor } from "./subject.js";

/** OIDC Back-Channel Logout 1.0 §2.4: the event member of a logout token. */
export const BACKCHANNEL_LOGOUT_EVENT = "http://schemas.openid.net/event/backchannel-logout";
const LOGOUT_TOKEN_LIFETIME = 120;
const RETRY_DELAY_MS = 500;

/** What ending one session does, read before its row goes (token rows lose `sessionId` with it). */
interface LogoutPlan {
  sessionId: string;
  userId: string;
  accessTokenIds: string[];
  refreshTokenIds: string[];
  targets: OAuthClientRow[];
}

/** Whether the operator listed the URI's host in `backchannelLogout.allowedHosts` (a parsed URI). */
function logoutHostAllowed(uri: string, options: BackchannelLogoutOptions | undefined): boolean {
  const hostname = new URL(uri).hostname.toLowerCase();
  return (options?.allowedHosts ?? []).some((host) => host.toLowerCase() === hostname);
}

/**
 * Whether the provider may send to `uri`: https to a publicly routable host, or any http(s)
 * host the operator listed in `backchannelLogout.allowedHosts`. Checked at registration and
 * again before every delivery, when the name is also resolved (`privateResolutionProblem`).
 */
export function deliverableLogoutURI(uri: string, options: BackchannelLogoutOptions | undefined): string | null {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return "backchannel_logout_uri must be an absolute URL";
  }
  if (uri.includes("#")) return "backchannel_logout_uri must not include a fragment component";
  if (url.username || url.password) return "backchannel_logout_uri must not contain credentials";
  const allowed = logoutHostAllowed(uri, options);
  if (allowed) return url.protocol === "https:" || url.protocol === "http:" ? null : "backchannel_logout_uri must use https";
  if (url.protocol !== "https:") return "backchannel_logout_uri must use https";
  if (!isPublicHost(url.hostname)) return "backchannel_logout_uri must not point to a private or reserved address";
  return null;
}

async function plan(ctx: AuthContext, session: Row): Promise<LogoutPlan | null> {
  const sessionId = String(session.id);
  const where = [{ field: "sessionId", value: sessionId }];
  const [access, refresh] = await Promise.all([
    ctx.adapter.findMany<{ id: string; clientId: string; revoked?: Date | null }>({ model: "oauthAccessToken", where }),
    ctx.adapter.findMany<{ id: string; clientId: string; revoked?: Date | null; scopes?: string[] | null }>({ model: "oauthRefreshToken", where }),
  ]);
  const clientIds = [...new Set([...access, ...refresh].map((row) => row.clientId))];
  if (!clientIds.length) return null;
  const clients = await ctx.adapter.findMany<OAuthClientRow & Record<string, unknown>>({
    model: "oauthClient",
    where: [{ field: "clientId", operator: "in", value: clientIds }],
  });
  return {
    sessionId,
    userId: String(session.userId),
    accessTokenIds: access.filter((row) => !row.revoked).map((row) => row.id),
    // Back-Channel Logout §2.7: refresh tokens granted with offline_access outlive the session.
    refreshTokenIds: refresh.filter((row) => !row.revoked && !row.scopes?.includes("offline_access")).map((row) => row.id),
    // Logout tokens are signed by the jwt plugin: none without it (`disableJwtPlugin`).
    targets: jwtDisabled(ctx) ? [] : clients.filter((client) => Boolean(client.backchannelLogoutUri) && !client.disabled),
  };
}

async function revoke(ctx: AuthContext, logout: LogoutPlan): Promise<void> {
  const revoked = new Date(Math.floor(Date.now() / 1000) * 1000);
  for (const [model, ids] of [["oauthAccessToken", logout.accessTokenIds], ["oauthRefreshToken", logout.refreshTokenIds]] as const) {
    if (!ids.length) continue;
    try {
      await ctx.adapter.updateMany({ model, where: [{ field: "id", operator: "in", value: ids }], update: { revoked } });
    } catch (error) {
      ctx.logger.error("back-channel logout: token revocation failed", error instanceof Error ? error.name : "unknown");
    }
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One logout token POSTed to one client, retried on a network failure, a timeout or a 5xx. */
async function deliver(ctx: AuthContext, options: ResolvedOAuthOptions, logout: LogoutPlan, client: OAuthClientRow): Promise<void> {
  const uri = client.backchannelLogoutUri!;
  const refused = deliverableLogoutURI(uri, options.backchannelLogout);
  if (refused) {
    ctx.logger.warn(`back-channel logout to client ${client.clientId} not sent: ${refused}`);
    return;
  }
  const iat = Math.floor(Date.now() / 1000);
  // §2.4: iss, aud, iat, exp, jti, events, sid and sub; never a nonce. typ per §2.4.1 (RFC 8725).
  const token = await getService(ctx, JWT_SIGNER).sign(
    {
      iss: tokenIssuer(ctx),
      aud: client.clientId,
      iat,
      exp: iat + LOGOUT_TOKEN_LIFETIME,
      jti: generateRandomString(32, "a-z", "A-Z", "0-9"),
      sub: await subjectFor(ctx, options, logout.userId, client),
      sid: logout.sessionId,
      events: { [BACKCHANNEL_LOGOUT_EVENT]: {} },
    },
    { header: { typ: "logout+jwt" } },
  );
  const attempts = Math.max(1, Math.floor(options.backchannelLogout?.attempts ?? 3));
  for (let attempt = 1; attempt <= attempts; attempt++) {
    let outcome: string;
    // Resolved again before every attempt: the name may have been pointed inside since registration.
    const resolved = logoutHostAllowed(uri, options.backchannelLogout) ? null : await privateResolutionProblem(new URL(uri).hostname);
    if (resolved) {
      ctx.logger.warn(`back-channel logout to client ${client.clientId} not sent: backchannel_logout_uri ${resolved}`);
      return;
    }
    try {
      const response = await boundedFetch(
        uri,
        {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
          body: new URLSearchParams({ logout_token: token }).toString(),
        },
        { timeout: options.backchannelLogout?.timeout ?? 5000, maxBytes: 64 * 1024 },
      );
      // §2.8: 200 (or 204) is done; a 4xx is the client's refusal, not worth repeating.
      if (response.status < 500) {
        if (response.status !== 200 && response.status !== 204) ctx.logger.warn(`back-channel logout to client ${client.clientId} answered ${response.status}`);
        return;
      }
      outcome = `answered ${response.status}`;
    } catch (error) {
      outcome = error instanceof Error ? error.message : "failed";
    }
    if (attempt === attempts) {
      ctx.logger.warn(`back-channel logout to client ${client.clientId} failed after ${attempts} attempts: ${outcome}`);
      return;
    }
    await pause(RETRY_DELAY_MS * 2 ** (attempt - 1));
  }
}

/** Deliveries still running (tests and graceful shutdowns may await them). */
const pending = new Set<Promise<void>>();

/** Resolves once every back-channel delivery started so far has finished. */
export async function settleBackchannelLogouts(): Promise<void> {
  while (pending.size) await Promise.allSettled([...pending]);
}

/**
 * `session.delete` hooks: before the row goes, the tokens bound to it and the clients to notify
 * are read; after, the tokens are revoked (awaited: they are dead when the request answers) and
 * one logout token per client with a `backchannel_logout_uri` is delivered in the background,
 * never holding the user's request (the reference waits for deliveries when no background
 * runner is configured).
 */
export function backchannelLogoutHooks(options: ResolvedOAuthOptions, context: () => AuthContext | undefined): DatabaseHooks {
  const plans = new Map<string, LogoutPlan>();
  const ctxOf = (hookCtx: { context: AuthContext } | null): AuthContext | undefined => hookCtx?.context ?? context();
  return {
    session: {
      delete: {
        async before(session, hookCtx) {
          const ctx = ctxOf(hookCtx);
          if (!ctx || typeof session.id !== "string" || typeof session.userId !== "string") return;
          try {
            const logout = await plan(ctx, session);
            if (logout) plans.set(logout.sessionId, logout);
          } catch (error) {
            ctx.logger.error("back-channel logout planning failed", error instanceof Error ? error.name : "unknown");
          }
        },
        async after(session, hookCtx) {
          const ctx = ctxOf(hookCtx);
          const logout = plans.get(String(session.id));
          plans.delete(String(session.id));
          if (!ctx || !logout) return;
          await revoke(ctx, logout);
          for (const client of logout.targets) {
            const delivery = deliver(ctx, options, logout, client).catch((error: unknown) => {
              ctx.logger.error(`back-channel logout to client ${client.clientId} failed`, error instanceof Error ? error.name : "unknown");
            });
            pending.add(delivery);
            void delivery.finally(() => pending.delete(delivery));
          }
        },
      },
    },
  };
}
