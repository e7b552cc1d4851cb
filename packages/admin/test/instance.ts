import { client, testAuth, type DatabaseKind, type TestAuth, type TestClient } from "@latchkey/test-support";
import type { LatchkeyOptions } from "@latchkey/core";
import { admin, type AdminOptions } from "../src/index.ts";

export const PASSWORD = "correct horse battery";
export const SESSION_COOKIE = "better-auth.session_token";
export const ADMIN_COOKIE = "better-auth.admin_session";

/** An instance with email/password and `admin(options)` on a fresh database. */
export const adminInstance = (
  db: DatabaseKind,
  options?: AdminOptions,
  extra: Omit<Partial<LatchkeyOptions>, "database"> = {},
): Promise<TestAuth> =>
  testAuth({ emailAndPassword: { enabled: true }, ...extra, plugins: [admin(options), ...(extra.plugins ?? [])] }, { db });

/** A signed-up user: its browser (signed in), id, email and session token. */
export interface Member {
  browser: TestClient;
  id: string;
  email: string;
  token: string;
}

/** Signs `name` up through a fresh browser; with `role`, stores that role on the user and signs in again. */
export async function member(t: TestAuth, name: string, role?: string): Promise<Member> {
  const browser = client(t.auth);
  const email = `${name}@example.com`;
  const up = await browser.post<{ token: string; user: { id: string } }>("/sign-up/email", { email, password: PASSWORD, name });
  if (up.status !== 200 || !up.json) throw new Error(`sign-up of ${name} failed: ${up.status} ${up.text}`);
  if (role) await t.auth.$context.internalAdapter.updateUser(up.json.user.id, { role } as never);
  return { browser, id: up.json.user.id, email, token: up.json.token };
}

/** Signs `email` in through a fresh browser and answers the sign-in's status and body. */
export async function signIn(t: TestAuth, email: string, password = PASSWORD) {
  const browser = client(t.auth);
  const answer = await browser.post<{ token?: string; code?: string; message?: string }>("/sign-in/email", { email, password });
  return { browser, answer };
}

/** The stored user row. */
export const storedUser = (t: TestAuth, id: string) =>
  t.auth.$context.internalAdapter.findUserById(id) as Promise<Record<string, unknown> | null>;

export { client };

/**
 * An application session hook that runs `next` (once) between the plugin's ban check and the
 * session insert: set `gap.next`, then pass `gap.hooks` as `databaseHooks`.
 */
export function sessionGap() {
  const gap = {
    next: null as (() => Promise<void>) | null,
    hooks: {
      session: {
        create: {
          before: async () => {
            const run = gap.next;
            gap.next = null;
            if (run) await run();
          },
        },
      },
    },
  };
  return gap;
}

/**
 * `root` impersonates `target`, then `replays` copies of the stop request race with the same
 * cookies: answers the impersonation session token and every answer.
 */
export async function raceStopImpersonating(t: TestAuth, root: Member, target: Member, replays = 10) {
  const browser = client(t.auth);
  browser.jar.values.set(SESSION_COOKIE, root.browser.jar.values.get(SESSION_COOKIE)!);
  const started = await browser.post<{ session: { token: string } }>("/admin/impersonate-user", { userId: target.id });
  if (started.status !== 200) throw new Error(`impersonation failed: ${started.status}`);
  const cookie = browser.jar.header()!;
  const answers = await Promise.all(
    Array.from({ length: replays }, () => client(t.auth).post("/admin/stop-impersonating", undefined, { headers: { cookie } })),
  );
  return { token: started.json!.session.token, answers, cookie };
}

/** Losers of a stop race find the session gone (401) or already claimed (400). */
export const NOT_IMPERSONATING = { message: "You are not impersonating anyone" };
